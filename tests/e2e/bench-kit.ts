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
