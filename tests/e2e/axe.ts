/**
 * axe-core accessibility check for e2e tests: `await expectNoAxeViolations(page, 'library, dark')`
 * runs axe with the WCAG 2.2 AA tags and fails with one line per violation (rule, impact, element).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';
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

export async function expectNoAxeViolations(page: Page, label: string, options: AxeCheckOptions = {}): Promise<void> {
  await settle(page);
  let builder = new AxeBuilder({ page }).withTags(wcagTags);
  for (const sel of options.include ?? []) builder = builder.include(sel);
  for (const sel of options.exclude ?? []) builder = builder.exclude(sel);
  const results = await builder.analyze();
  const lines = describeViolations(results.violations);
  if (lines.length) console.log(`axe violations in ${label}:\n  ${lines.join('\n  ')}`);
  expect(lines, `axe-core (WCAG 2.2 AA) violations in ${label}`).toEqual([]);
}

/**
 * The axe check in the light theme and then the dark one (the page is left
 * light). With `shot`, a screenshot of each theme is saved first (snap.ts),
 * as `<shot>-light` and `<shot>-dark`.
 */
export async function expectNoAxeViolationsInBothThemes(page: Page, label: string, shot?: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    if (shot) await snap(page, `${shot}-${scheme}`);
    await expectNoAxeViolations(page, `${label} ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
