/**
 * Models without word timings (issue 25): a transcript made by Moonshine (no word times: the engine spread them)
 * says by its text and in its details that its word times are approximate, naming the model; one made by a model
 * with word timings (Parakeet) says nothing of the kind. Axe in both themes, screenshots.
 */
import { mkdirSync } from 'node:fs';
import { Library } from '../../src/main/services/library/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';
import { makeWords } from './seed';

function seed(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  for (const [title, model] of [
    ['Moonshine memo', 'moonshine-tiny-en'],
    ['Parakeet memo', 'parakeet-tdt-0.6b-v2'],
  ] as const) {
    const words = makeWords(80);
    const { transcriptId } = lib.recordings.add({
      title,
      source: `${title}.wav`,
      sourceKind: 'file',
      sizeBytes: 1000,
      region: 'local',
      baseUrl: null,
      options: {},
    });
    lib.transcripts.complete(transcriptId, {
      remoteId: null,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en',
      model,
      durationMs: (words.at(-1)?.end ?? 0) + 500,
    });
  }
  lib.close();
}

test('a transcript from a model without word timings says its word times are approximate', async ({ page, host }) => {
  seed(host.dataDir);
  await page.goto(host.url);
  await expect(page.getByText('2 recordings')).toBeVisible();

  await page.getByRole('button', { name: 'Open Moonshine memo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Moonshine memo' })).toBeVisible();
  const note = page.getByTestId('approximate-times');
  await expect(note).toHaveText(/^Word times are approximate: Moonshine tiny \(English, int8\) gives no word timings/);
  await expect(note).toContainText('does not snap to them');
  // The note sits above the text, which still scrolls and reads.
  await expect(page.getByTestId('transcript-body').locator('.w').first()).toBeVisible();
  const noteBox = (await note.boundingBox())!;
  const bodyBox = (await page.getByTestId('transcript-body').boundingBox())!;
  expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(bodyBox.y + 1);
  await expect(page.getByTestId('details-approximate-times')).toContainText('Moonshine tiny (English, int8) gives no word timings');
  await expectNoAxeViolationsInBothThemes(page, 'transcript with approximate word times', 'transcript-approximate-times');

  await page.getByRole('button', { name: 'Back to the library' }).click();
  await page.getByRole('button', { name: 'Open Parakeet memo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Parakeet memo' })).toBeVisible();
  await expect(page.getByTestId('transcript-body').locator('.w').first()).toBeVisible();
  await expect(page.getByTestId('details')).toContainText('parakeet-tdt-0.6b-v2');
  await expect(page.getByTestId('approximate-times')).toHaveCount(0);
  await expect(page.getByTestId('details-approximate-times')).toHaveCount(0);
});
