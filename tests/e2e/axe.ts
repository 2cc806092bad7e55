/**
 * axe-core accessibility check for e2e tests: `await expectNoAxeViolations(page, 'library, dark')`
 * runs axe with the WCAG 2.2 AA tags and fails with one line per violation (rule, impact, element).
 */
import { expect, type Page } from '@playwright/test';
import axe, { type AxeResults, type Result } from 'axe-core';
import { snap } from './snap';

/** The rule sets the project promises: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeCheckOptions {
  /** CSS selectors to limit the check to (default: the whole page). */
  include?: string[];
  /** CSS selectors to leave out; say in the test why. */
  exclude?: string[];
}

/** One readable line per failing element: rule id, impact, selector, and what axe says to fix. */
export function describeViolations(violations: Result[]): string[] {
  const lines: string[] = [];
  for (const v of violations) {
    for (const node of v.nodes) {
      const target = node.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' | ');
      const why = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
      lines.push(`${v.id} (${v.impact ?? 'unknown'}) at ${target}: ${v.help}. ${why} [${v.helpUrl}]`);
    }
  }
  return lines;
}

/** Waits for finite CSS transitions and animations, so colours are measured at rest, not mid-fade. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const running = document.getAnimations().filter((a) => {
      const timing = a.effect?.getComputedTiming();
      return timing?.iterations !== Infinity && a.playState === 'running';
    });
    await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))]);
  });
}

/**
 * What axe would see: the checked part's markup, the focused element and the colour scheme. A state
 * with the same fingerprint as one already found clean on this page is not analysed again (a test that
 * checks after a step that changed nothing pays nothing; axe costs seconds of CPU per pass).
 */
async function fingerprint(page: Page, options: AxeCheckOptions): Promise<string> {
  return page.evaluate(
    ({ include, exclude }) => {
      const roots = include.length ? include.flatMap((sel) => [...document.querySelectorAll(sel)]) : [document.documentElement];
      let text = `${matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'}|${innerWidth}x${innerHeight}|${exclude.join(',')}|`;
      text += roots.map((r) => r.outerHTML).join('\n');
      const active = document.activeElement;
      text += `|focus:${active ? `${active.tagName}#${active.id}.${active.className}:${active.outerHTML.slice(0, 200)}` : ''}`;
      // FNV-1a over the UTF-16 code units, as two 32-bit halves (collisions across a run's states are not a concern).
      let h1 = 0x811c9dc5;
      let h2 = 0x01000193;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 0x01000193);
        h2 = Math.imul(h2 ^ c, 0x811c9dc5) ^ (h1 >>> 15);
      }
      return `${text.length}:${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
    },
    { include: options.include ?? [], exclude: options.exclude ?? [] },
  );
}

/**
 * axe-core run in the page itself (the app has no frames): its source is put in once per document and
 * only violations are gathered. @axe-core/playwright's analyze() put the source in again and opened a
 * blank page to merge its results on every call: 1.4-2.1 s a pass against 0.3-0.8 s this way, measured
 * side by side on the same library screen (loaded 2-core machine).
 */
async function runAxe(page: Page, options: AxeCheckOptions): Promise<AxeResults> {
  type AxeWindow = { axe?: typeof axe };
  const loaded = await page.evaluate(() => typeof (window as unknown as AxeWindow).axe?.run === 'function');
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate(
    ({ include, exclude, tags }) => {
      const run = (window as unknown as AxeWindow).axe!;
      const context = include.length ? { include, exclude } : exclude.length ? { exclude } : document;
      return run.run(context as never, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    },
    { include: options.include ?? [], exclude: options.exclude ?? [], tags: wcagTags },
  );
}

/** Fingerprints already found clean, per page, with the label they were first checked under. */
const clean = new WeakMap<Page, Map<string, string>>();

export async function expectNoAxeViolations(page: Page, label: string, options: AxeCheckOptions = {}): Promise<void> {
  await settle(page);
  const seen = clean.get(page) ?? new Map<string, string>();
  clean.set(page, seen);
  const print = await fingerprint(page, options);
  if (seen.has(print)) return;
  const results = await runAxe(page, options);
  const lines = describeViolations(results.violations);
  if (lines.length) console.log(`axe violations in ${label}:\n  ${lines.join('\n  ')}`);
  expect(lines, `axe-core (WCAG 2.2 AA) violations in ${label}`).toEqual([]);
  seen.set(print, label);
}

/**
 * Waits until the app has followed the OS's new scheme: it sets <html data-theme> in a React effect after the
 * media query's change event (components/useTheme.ts), so right after emulateMedia no colour transition has begun
 * yet and settle() has nothing to wait for; axe then measured colours mid-switch (light text on the light accent).
 * A theme the user picked in the app (remembered as verbatim.theme) does not follow the OS: nothing to wait for.
 */
async function themeFollowed(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate((s) => {
        let picked: string | null = null;
        try {
          picked = localStorage.getItem('verbatim.theme');
        } catch {
          // No storage (an opaque origin): the page follows the OS.
        }
        return picked === 'light' || picked === 'dark' || document.documentElement.dataset.theme === s;
      }, scheme),
    )
    .toBe(true);
}

/**
 * The axe check in the light theme and then the dark one (the page is left
 * light). With `shot`, a screenshot of each theme is saved first (snap.ts),
 * as `<shot>-light` and `<shot>-dark`.
 */
export async function expectNoAxeViolationsInBothThemes(page: Page, label: string, shot?: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await themeFollowed(page, scheme);
    if (shot) await snap(page, `${shot}-${scheme}`);
    await expectNoAxeViolations(page, `${label} ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
