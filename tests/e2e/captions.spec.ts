/**
 * Live captions end to end in host mode: Chromium's fake microphone plays a
 * flite WAV (echo cancellation, noise suppression and auto gain off, so the
 * file's samples reach the worklet), the local engine captions it through
 * /v3/ws, the words show in the panel and in the pop-out overlay, and the
 * stopped session is a library item whose recording plays.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';
import { snap } from './snap';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-e2e-'));
const wav = join(dir, 'speech.wav');
// Speech, then 2.5 s of silence so each turn ends before Chromium loops the file.
execFileSync('flite', ['-voice', 'slt', '-t', 'Good morning everyone. The budget meeting starts at nine.', '-o', join(dir, 'raw.wav')]);
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'raw.wav'), '-af', 'apad=pad_dur=2.5', '-ar', '48000', '-ac', '1', wav]);

test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)],
  },
  permissions: ['microphone'],
});

async function openCaptions(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Live captions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
}

async function rawAudioSettings(page: Page): Promise<void> {
  await page.getByText('Caption settings').click();
  for (const name of ['Echo cancellation', 'Noise suppression', 'Automatic gain']) {
    const sw = page.getByRole('switch', { name });
    if (await sw.isChecked()) await sw.click({ force: true });
    await expect(sw).not.toBeChecked();
  }
}

test.describe('live captions', () => {
  test('captions the fake microphone in the panel and the pop-out, saves the session, and it plays', async ({ page, host }) => {
    await openCaptions(page, host.url);
    await rawAudioSettings(page);
    await snap(page, 'captions-idle-light');
    await expectNoAxeViolations(page, 'captions idle, light');
    // Every text the delay figure shows, the first one included (it is replaced within a turn or two).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as { __delayTexts?: string[] }).__delayTexts = seen;
      new MutationObserver(() => {
        const t = document.querySelector('[data-testid="caption-latency"]')?.textContent;
        if (t && seen.at(-1) !== t) seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('source-mic')).toContainText('Live', { timeout: 90_000 });
    // The meter moves with the file's speech.
    await expect.poll(async () => Number(await page.getByTestId('meter-mic').getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(20);

    const panel = page.getByTestId('captions-panel');
    const finalLine = panel.locator('[data-testid="caption-line"][data-final="true"]').first();
    await expect(finalLine).toBeVisible({ timeout: 60_000 });
    const heard = (await finalLine.textContent()) ?? '';
    expect(heard.toLowerCase()).toMatch(/morning|budget|meeting|nine|everyone/);
    await expect(page.getByTestId('caption-latency')).toBeVisible();
    const delays = await page.evaluate(() => (window as { __delayTexts?: string[] }).__delayTexts ?? []);
    expect(delays.length).toBeGreaterThan(0);
    for (const d of delays) expect(d).toMatch(/^Delay (\d+ ms|\d+\.\d s)$/);

    // The overlay: Document Picture-in-Picture where Chromium offers it, else the pop-out window; same component.
    const popupOpened = page.waitForEvent('popup', { timeout: 8000 }).catch(() => null);
    await page.getByRole('button', { name: 'Pop out captions' }).click();
    const popup = await popupOpened;
    // Playwright sees a Document Picture-in-Picture window as a popup too; either way it renders CaptionsOverlay.
    if (popup) {
      const overlay = popup.getByTestId('captions-overlay');
      await expect(overlay).toContainText(/morning|budget|meeting|nine|everyone/i, { timeout: 20_000 });
      await popup.screenshot({ path: 'test-results/screens/captions-popout-light.png' });
      await expectNoAxeViolations(popup, 'captions pop-out overlay, light');
    } else {
      // No pop-out: Chromium opened Document Picture-in-Picture, rendered from this page.
      const pipText = () =>
        page.evaluate(
          () =>
            (window as unknown as { documentPictureInPicture?: { window: Window | null } }).documentPictureInPicture?.window?.document.body.textContent ?? '',
        );
      await expect.poll(pipText, { timeout: 20_000 }).toMatch(/morning|budget|meeting|nine|everyone/i);
    }
    await snap(page, 'captions-running-light');
    await expectNoAxeViolations(page, 'captions running, light');

    // Running in the OS's dark theme, which the app and the pop-out follow: still no violations.
    for (const p of popup ? [page, popup] : [page]) await p.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await snap(page, 'captions-running-dark');
    await expectNoAxeViolations(page, 'captions running, dark');
    if (popup) {
      await expect(popup.locator('html')).toHaveAttribute('data-theme', 'dark');
      await popup.screenshot({ path: 'test-results/screens/captions-popout-dark.png' });
      await expectNoAxeViolations(popup, 'captions pop-out overlay, dark');
      await popup.close();
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.getByTestId('captions-stop').click();
    const saved = page.getByTestId('caption-saved');
    await expect(saved).toContainText('Saved to the library', { timeout: 20_000 });
    await expect(saved).toContainText('with its recording');
    await snap(page, 'captions-saved-light');

    // Dark theme: the same screen has no violations either.
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await snap(page, 'captions-saved-dark');
    await expectNoAxeViolations(page, 'captions saved, dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));

    // The library lists the session with the words; it opens and plays with words highlighted.
    await page.getByRole('button', { name: 'Library' }).click();
    const row = page.getByTestId('library-row').filter({ hasText: 'Live session' }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText(/morning|budget|meeting|nine|everyone/i);
    await row.getByRole('button', { name: /^Open Live session/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Live session/ })).toBeVisible();
    const audio = page.getByTestId('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 10_000 }).toBeGreaterThan(0);
    const words = page.getByTestId('transcript-body').locator('.w');
    await expect(words.first()).toBeVisible();
    await words.first().click();
    await page.keyboard.press('Space');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
    await expect(page.getByRole('button', { name: 'Improve accuracy' })).toBeVisible();
    await snap(page, 'captions-session-transcript-light');
  });

  test('says plainly when the microphone is refused, and nothing is added to the library', async ({ page, host, context }) => {
    await context.clearPermissions();
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await openCaptions(page, host.url);
    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('captions-error')).toContainText('permission was refused');
    await expect(page.getByTestId('captions-start')).toBeEnabled();
    await page.getByRole('button', { name: 'Library' }).click();
    await expect(page.getByRole('heading', { name: 'Your library' })).toBeVisible();
  });
});
