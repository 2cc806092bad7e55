/** Screenshots of UI states for a designer's review, saved under test-results/screens/. */
import type { Page } from '@playwright/test';

export async function snap(page: Page, name: string): Promise<void> {
  // Let colour transitions (theme switch, hover) settle so the picture shows the resting state.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}
