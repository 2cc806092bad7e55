/** Shared by bench/ui-*.ts: a Chromium like the e2e one, host mode on a data folder, and small statistics. */
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { launchHost, stopHost } from './host';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

export function tempDataDir(tag: string): string {
  return join(mkdtempSync(join(tmpdir(), `verbatim-bench-${tag}-`)), 'data');
}

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

export const ms = (v: number) => `${v.toFixed(1)} ms`;

/** Host mode on `dataDir` and a 1280×800 page ready to open its address; `close()` ends both. */
export async function openHostPage(dataDir: string): Promise<{ url: string; page: Page; close(): Promise<void> }> {
  const { url, child } = await launchHost(dataDir);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // tsx keeps function names with a __name helper; the functions sent to the page need it too.
  await page.addInitScript('window.__name = (f) => f;');
  return {
    url,
    page,
    async close() {
      await browser.close();
      await stopHost(child);
    },
  };
}

/**
 * When the page first shows the library with the bridge connected, on this process's clock
 * (performance.now()). The page says so itself: a MutationObserver, installed before its scripts run,
 * calls a binding as soon as the DOM shows "Connected" and the "Your library" heading. Playwright's own
 * waits look again only after 20, 50, then 100 ms (its backoff), so the moment they see it is up to
 * 100 ms late and moves with their poll times, not with the app. Call before `page.goto`; `at` resolves then.
 */
export async function libraryShown(page: Page): Promise<{ at: Promise<number> }> {
  let shown!: (at: number) => void;
  const at = new Promise<number>((r) => (shown = r));
  await page.exposeBinding('__verbatimBenchShown', () => shown(performance.now()));
  // tsx keeps function names with a __name helper; the function sent to the page needs it too.
  await page.addInitScript('window.__name ??= (f) => f;');
  await page.addInitScript(() => {
    const w = window as unknown as { __verbatimBenchShown(): void };
    let told = false;
    const check = () => {
      if (told) return;
      const connected = document.querySelector('[data-testid="connection"]')?.textContent?.includes('Connected') ?? false;
      const heading = [...document.querySelectorAll('h1')].some((h) => h.textContent?.trim() === 'Your library');
      if (connected && heading) {
        told = true;
        observer.disconnect();
        w.__verbatimBenchShown();
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  // In an object: an async function returning the promise itself would wait for it.
  return { at };
}
