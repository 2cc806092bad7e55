/**
 * Settings on host mode: a wrong key is refused with what to do, the right one
 * verifies (against the real local engine run as a "custom" service with its
 * own key), defaults persist, and both themes are pictured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropFileFrom, dropFiles } from './drop';
import { expect, root, test } from './host';
import { fliteWav } from './seed';
import { snap } from './snap';
import { expectNoAxeViolations } from './axe';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startEngine(key: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    join(root, 'node_modules/.bin/tsx'),
    [join(root, 'src/engine/index.ts'), '--port', String(port), '--api-key', key, '--data', mkdtempSync(join(tmpdir(), 'verbatim-engine-'))],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('engine did not start in 30 s')), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`engine exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

test.describe('settings', () => {
  test('a wrong key is refused with how to fix it; the right key verifies; remove goes back to local', async ({ page, host }) => {
    const engine = await startEngine('right-key-0123456789');
    try {
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByLabel('Region').selectOption('custom');
      const rest = page.getByLabel('REST address');
      await rest.fill(engine.url);
      await rest.blur();
      await expect(page.getByTestId('region')).toHaveText('Region: Custom');

      const section = page.getByTestId('key-section');
      await section.getByLabel('Your AssemblyAI API key').fill('wrong-key-0123456789');
      await section.getByRole('button', { name: 'Save and verify' }).click();
      const error = section.getByTestId('key-error');
      await expect(error).toContainText('invalid');
      await expect(error).toContainText(/copied the whole key|Copy the key again/);
      await expect(section.getByText('No key', { exact: true })).toBeVisible();
      await section.scrollIntoViewIfNeeded();
      await snap(page, 'settings-key-invalid-light');

      await section.getByLabel('Your AssemblyAI API key').fill('right-key-0123456789');
      await section.getByRole('button', { name: 'Save and verify' }).click();
      await expect(section.getByText('Verified', { exact: true })).toBeVisible();
      await expect(section).toContainText('…6789');
      await expect(error).toHaveCount(0);
      await expect(section.getByTestId('key-bound')).toContainText(engine.url);

      // Another service address: the saved key is not sent there until it is entered again (12.6).
      await rest.fill('http://127.0.0.1:9');
      await rest.blur();
      const elsewhere = section.getByTestId('key-elsewhere');
      await expect(elsewhere).toContainText(`entered for ${engine.url}`);
      await expect(elsewhere).toContainText('enter the key again');
      await section.scrollIntoViewIfNeeded();
      await snap(page, 'settings-key-elsewhere-light');
      await expectNoAxeViolations(page, 'settings, key for another address, light');
      await expect(section.getByText('For another address', { exact: true })).toBeVisible();
      await page.getByRole('radio', { name: 'Dark' }).check();
      await section.scrollIntoViewIfNeeded();
      await snap(page, 'settings-key-elsewhere-dark');
      await expectNoAxeViolations(page, 'settings, key for another address, dark');
      await section.getByRole('button', { name: 'Verify again' }).click();
      await expect(error).toContainText('enter the key again');
      await rest.fill(engine.url);
      await rest.blur();
      await expect(elsewhere).toHaveCount(0);
      await page.getByRole('radio', { name: 'Light' }).check();

      await section.getByRole('button', { name: 'Remove key' }).click();
      await expect(section.getByText('No key', { exact: true })).toBeVisible();
    } finally {
      engine.child.kill('SIGTERM');
    }
  });

  test('defaults persist, and settings look right in light and dark', async ({ page, host }) => {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('radio', { name: 'Light' }).check();
    await page.getByRole('switch', { name: 'Redact personal information' }).check();
    await page.getByRole('checkbox', { name: 'Places' }).check();
    // A value that is not a web address stays in the field with the reason under it, in plain words.
    await page.getByLabel('Webhook URL').fill('nope');
    await page.getByLabel('Webhook URL').blur();
    await expect(page.getByLabel('Webhook URL')).toHaveValue('nope');
    await expect(page.getByText('That is not a web address; it must start with https:// or http://')).toBeVisible();
    await expect(page.getByText(/Invalid input/)).toHaveCount(0);
    await page.getByLabel('Webhook URL').fill('https://hooks.example.org/verbatim');
    await page.getByLabel('Webhook URL').blur();
    await expect(page.getByText('That is not a web address; it must start with https:// or http://')).toHaveCount(0);
    await snap(page, 'settings-light');
    await page.getByRole('radio', { name: 'Dark' }).check();
    await snap(page, 'settings-dark');

    await page.reload();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('switch', { name: 'Redact personal information' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Places' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Names' })).toBeChecked();
    await expect(page.getByLabel('Webhook URL')).toHaveValue('https://hooks.example.org/verbatim');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('switch', { name: 'Keep a copy of the audio' }).uncheck();
    await expect(page.getByRole('switch', { name: 'Keep a copy of the audio' })).not.toBeChecked();
  });

  test("a transcript's details tell what the team's webhook server answered", async ({ page, host }) => {
    const calls: { path: string; secret: string | undefined }[] = [];
    const hooks = createHttpServer((req, res) => {
      calls.push({ path: req.url ?? '', secret: req.headers['x-team-secret'] as string | undefined });
      req.resume();
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/verbatim`;
    const engine = await startEngine('team-key-0123456789');
    try {
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByLabel('Region').selectOption('custom');
      await page.getByLabel('REST address').fill(engine.url);
      await page.getByLabel('REST address').blur();
      const section = page.getByTestId('key-section');
      await section.getByLabel('Your AssemblyAI API key').fill('team-key-0123456789');
      await section.getByRole('button', { name: 'Save and verify' }).click();
      await expect(section.getByText('Verified', { exact: true })).toBeVisible();
      for (const [label, value] of [
        ['Webhook URL', `${hookUrl}?team=7`],
        ['Auth header name', 'X-Team-Secret'],
        ['Auth header value', 'shh'],
      ] as const) {
        await page.getByLabel(label).fill(value);
        await page.getByLabel(label).blur();
      }
      // The secret is sealed in main: the field empties, says it is saved, and never shows it again.
      const secret = page.getByLabel('Auth header value');
      await expect(secret).toHaveValue('');
      await expect(secret).toHaveAttribute('placeholder', 'Saved: type to replace it');
      await page.reload();
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await expect(page.getByLabel('Auth header value')).toHaveAttribute('placeholder', 'Saved: type to replace it');
      expect(await page.evaluate(() => document.documentElement.outerHTML.includes('shh'))).toBe(false);

      await page.getByRole('button', { name: 'Library', exact: true }).click();
      await dropFiles(page, [dropFileFrom(fliteWav(mkdtempSync(join(tmpdir(), 'verbatim-e2e-hook-')), 'standup.wav', 'The standup starts at nine.'))]);
      const row = page.getByTestId('job-row').filter({ hasText: 'standup.wav' });
      await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
      await row.getByRole('button', { name: 'Open' }).click();
      const state = page.getByTestId('webhook-state');
      await expect(state).toHaveAttribute('data-state', 'delivered', { timeout: 30_000 });
      await expect(state).toContainText('Delivered: HTTP 200');
      // The query (which may hold the team's secret) is not shown.
      await expect(state).toContainText(hookUrl);
      await expect(state).not.toContainText('team=7');
      expect(calls[0]).toEqual({ path: '/verbatim?team=7', secret: 'shh' });
      await snap(page, 'transcript-webhook-delivered-light');
    } finally {
      engine.child.kill('SIGTERM');
      hooks.close();
    }
  });
});
