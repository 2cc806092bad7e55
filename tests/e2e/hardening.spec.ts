/**
 * Host mode's page-level hardening (issue 12.15, 12.16): the launch token
 * leaves the address bar once read, a reload still reconnects, and the
 * page's meta CSP is the header CSP (one source, src/shared/csp.ts).
 */
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../src/shared/csp';
import { expect, test } from './host';

test.describe('host-mode page hardening', () => {
  test('takes the launch token out of the address bar and history once connected, and a reload still reconnects', async ({ page, host }) => {
    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    const token = new URL(host.url).searchParams.get('token') as string;
    expect(page.url()).toBe(`${host.origin}/`);
    expect(await page.evaluate(() => window.location.href)).not.toContain('token');
    // The entry was replaced, not added: back leaves the app instead of landing on the tokened address, and forward returns without it.
    await page.goBack();
    expect(page.url()).toBe('about:blank');
    await page.goForward();
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    expect(page.url()).toBe(`${host.origin}/`);

    await page.reload();
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    expect(page.url()).not.toContain(token);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  });

  test('keeps the other query parameters and the hash when it removes the token', async ({ page, host }) => {
    await page.goto(`${host.url}&view=library#top`);
    await expect(page.getByTestId('connection')).toHaveText(/Connected/);
    expect(page.url()).toBe(`${host.origin}/?view=library#top`);
  });

  test('serves a meta CSP equal to the header CSP, with verbatim-media: in both', async ({ page, host }) => {
    const res = await page.goto(host.url);
    const header = res?.headers()['content-security-policy'];
    expect(header).toBe(CONTENT_SECURITY_POLICY);
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toBe(META_CONTENT_SECURITY_POLICY);
    // The meta form differs only by frame-ancestors, which a meta tag cannot carry.
    expect(header?.split('; ').filter((d) => !d.startsWith('frame-ancestors'))).toEqual(meta?.split('; '));
    expect(meta).toMatch(/media-src [^;]*verbatim-media:/);
  });
});
