import { expect, test } from './host';

test.describe('app frame in host mode', () => {
  test('starts on the library without loading zod (issue 29: cold start); the chunks that need it load it later', async ({ page, host }) => {
    const scripts: { url: string; body: string }[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script')
        void r.text().then(
          (body) => scripts.push({ url: r.url(), body }),
          () => undefined,
        );
    });
    await page.goto(host.url);
    await expect(page.getByRole('heading', { level: 1, name: 'Your library' })).toBeVisible();
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    await expect.poll(() => scripts.length).toBeGreaterThan(2);
    const isZod = (body: string) => body.includes('$ZodType');
    expect(scripts.filter((s) => isZod(s.body)).map((s) => s.url)).toEqual([]);
    // Not a vacuous pass: among the chunks the loaded ones name (loaded on demand), one is zod.
    const named = new Set(scripts.flatMap((s) => [...s.body.matchAll(/"\.\/([\w-]+\.js)"/g)].map((m) => m[1] as string)));
    const lazy = await Promise.all([...named].map(async (name) => (await page.request.get(new URL(`/assets/${name}`, host.url).toString())).text()));
    expect(lazy.some(isZod)).toBe(true);
  });

  test('shows the frame, every screen, and the status bar', async ({ page, host }) => {
    await page.goto(host.url);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    await expect(page.getByTestId('mode')).toHaveText('Host mode');
    await expect(page.getByTestId('region')).toHaveText('Region: Local');

    for (const [label, heading] of [
      ['Library', 'Your library'],
      ['Live captions', 'Live captions'],
      ['Chat', 'Chat with your recordings'],
      ['Settings', 'Settings'],
    ] as const) {
      await page.getByRole('button', { name: label, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
      await page.screenshot({ path: `test-results/screens/${label.toLowerCase().replace(' ', '-')}-light.png` });
    }
    await expect(page.getByText(host.dataDir).first()).toBeVisible();
  });

  test('follows the OS theme until the user picks one, and keeps the choice across reloads and restarts', async ({ page, host }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(host.url);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByLabel('Region').selectOption('eu');
    await expect(page.getByTestId('region')).toHaveText('Region: EU');
    await page.screenshot({ path: 'test-results/screens/settings-dark.png' });

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByTestId('region')).toHaveText('Region: EU');

    await host.restart();
    await page.goto(host.url);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await page.screenshot({ path: 'test-results/screens/library-dark.png' });
  });

  test('is reachable by keyboard', async ({ page, host }) => {
    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    await page.keyboard.press('Tab');
    // The first stop is the skip link, which jumps over the navigation.
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Library', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
  });

  test('refuses the bridge without the token and says so', async ({ page, host }) => {
    await page.goto(`${host.origin}/`);
    await expect(page.getByTestId('connection')).toHaveText(/Not connected|Disconnected|Connecting/);
    await expect(page.getByRole('heading', { name: 'Not connected to Verbatim' })).toBeVisible();
    const status = await page.evaluate(async (origin) => {
      const res = await fetch(`${origin}/bridge`, { headers: { upgrade: 'websocket' } }).catch(() => null);
      return res?.status ?? 0;
    }, host.origin);
    expect(status).not.toBe(101);
  });
});
