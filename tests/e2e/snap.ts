/** Screenshots of UI states for a designer's review, saved under test-results/screens/. */
import type { Page } from '@playwright/test';

export async function snap(page: Page, name: string): Promise<void> {
  // Colour transitions (theme switch, hover) end before the picture, so it shows the resting state:
  // two frames let a transition the mouse move starts begin, then every finite animation is jumped to its end.
  // (Awaiting them instead never ended on a page where new ones keep starting, as live captions do.)
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const a of document.getAnimations()) if (a.effect?.getComputedTiming().iterations !== Infinity && a.playState === 'running') a.finish();
    await new Promise((r) => requestAnimationFrame(r));
  });
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}
