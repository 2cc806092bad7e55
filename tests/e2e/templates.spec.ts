/**
 * Summary templates on host mode: the Chat screen's templates view lists the
 * built-in ones, a new template is written and saved, exported as Markdown
 * and imported back from that file; axe in light and dark.
 */
import { readFileSync } from 'node:fs';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

test.describe('summary templates', () => {
  test('writes a template, exports it as Markdown and imports it back', async ({ page, host }) => {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'Summary templates' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Summary templates' })).toBeVisible();
    const rows = page.getByTestId('template');
    await expect(rows).toHaveCount(4);
    await expect(rows.first()).toContainText('1:1');

    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Design review');
    await page.getByLabel('Section 1', { exact: true }).fill('Proposals');
    await page.getByLabel('What goes in it').first().fill('Each design proposed, and by whom.');
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByLabel('Section 2', { exact: true }).fill('Verdicts');
    await page.getByLabel('What goes in it').nth(1).fill('What was accepted or turned down.');
    await expectNoAxeViolationsInBothThemes(page, 'templates, writing one', 'templates-editor');
    await page.getByRole('button', { name: 'Save template' }).click();
    await expect(rows).toHaveCount(5);
    await expect(rows.filter({ hasText: 'Design review' })).toContainText('Proposals · Verdicts');
    await expectNoAxeViolationsInBothThemes(page, 'templates list', 'templates-list');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export “Design review” as Markdown' }).click();
    const file = await (await download).path();
    const markdown = readFileSync(file, 'utf8');
    expect(markdown).toBe('# Design review\n\n## Proposals\n\nEach design proposed, and by whom.\n\n## Verdicts\n\nWhat was accepted or turned down.\n');

    await page.getByTestId('template-file').setInputFiles({ name: 'Design review.md', mimeType: 'text/markdown', buffer: Buffer.from(markdown) });
    await expect(rows.filter({ hasText: 'Design review (2)' })).toContainText('Proposals · Verdicts');
    await page.getByRole('button', { name: 'Delete “Design review (2)”' }).click();
    await expect(rows).toHaveCount(5);
  });
});
