/**
 * Summary templates on host mode: the Chat screen's templates view lists the
 * built-in ones, a new template is written and saved, exported as Markdown
 * and imported back from that file; Understand writes a transcript's summary
 * to a built-in template with a local GGUF model written by the test, its
 * citation opening the moment. Axe in light and dark.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { installTinyGguf } from '../fixtures/models/gguf';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

function seedTranscript(dataDir: string, title: string, sentences: [number, string][]): void {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const { transcriptId } = lib.recordings.add({ title, source: `${title}.wav`, sourceKind: 'file', sizeBytes: 1, region: 'local', baseUrl: null, options: {} });
  const words: Word[] = sentences.flatMap(([start, text]) =>
    text.split(' ').map((w, i) => ({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, speaker: null })),
  );
  lib.transcripts.complete(transcriptId, {
    remoteId: null,
    text: sentences.map((x) => x[1]).join(' '),
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'test',
    durationMs: (words.at(-1)?.end ?? 0) + 500,
  });
  lib.close();
}

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

  test('Understand writes a transcript’s summary to a template, each point citing its moment', async ({ page, host }) => {
    installTinyGguf(join(host.dataDir, 'models'), 'tiny-template', { words: ['Friday', 'ship', 'date', '[Launch meeting @ 00:05]', '.'] });
    seedTranscript(host.dataDir, 'Launch meeting', [
      [0, 'Good morning and thanks for joining.'],
      [5000, 'We agreed to ship the report on Friday.'],
    ]);
    await host.restart();
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Launch meeting' }).click();
    await page.getByRole('button', { name: 'Understand…' }).click();
    const dialog = page.getByRole('dialog', { name: /Understand/ });
    // The app's engine lists the installed model once it is up: with no key it is the one Understand runs with.
    await expect(dialog).toContainText(/Runs with .*tiny-template/, { timeout: 60_000 });
    await dialog.getByTestId('insight-template').selectOption({ label: 'Stand-up' });
    await dialog.getByRole('button', { name: 'Summary', exact: true }).click();
    const summary = dialog.getByTestId('insight-summary');
    await expect(summary).toContainText('Written to the “Stand-up” template.');
    await expect(summary.getByRole('heading', { level: 4 })).toHaveText(['Done', 'Next', 'Blockers']);
    await expect(summary.getByRole('button', { name: 'Open at 00:05' }).first()).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'understand, a summary written to a template', 'understand-template');
  });
});
