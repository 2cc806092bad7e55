/**
 * Who an answer is credited to, on host mode: when no transcript holds the
 * question's words the app answers in its own words and names no model;
 * an answer the model wrote names it.
 */
import { mkdirSync } from 'node:fs';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { expect, test } from './host';

function seed(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const { transcriptId } = lib.recordings.add({
    title: 'Harbour log',
    source: 'harbour.wav',
    sourceKind: 'file',
    sizeBytes: 1,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  const text = 'The ferry to the island leaves at seven tomorrow.';
  const words: Word[] = text.split(' ').map((w, i) => ({ text: w, start: i * 300, end: i * 300 + 250, confidence: 0.9, speaker: null }));
  lib.transcripts.complete(transcriptId, {
    remoteId: null,
    text,
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'test',
    durationMs: 3500,
  });
  lib.close();
}

test('an answer the app wrote itself names no model; one the model wrote names it', async ({ page, host }) => {
  seed(host.dataDir);
  await host.restart();
  await page.goto(host.url);
  await expect(page.getByTestId('connection')).toHaveText('Connected');
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  const input = page.getByRole('textbox', { name: 'Ask a question' });
  await expect(input).toBeFocused();

  await input.fill('Zebras xylophone quokka?');
  await input.press('Enter');
  const own = page.getByTestId('answer').first();
  await expect(own).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(own).toContainText('No transcript in the library contains the words of this question.');
  await expect(own.getByTestId('answered-by')).toHaveCount(0);

  await input.fill('When does the ferry leave for the island?');
  await input.press('Enter');
  await expect(page.getByTestId('answer')).toHaveCount(2);
  const quoted = page.getByTestId('answer').last();
  await expect(quoted).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(quoted).toContainText(/ferry to the island leaves at seven/i);
  await expect(quoted.getByTestId('answered-by')).toHaveText(/^Answered by \S/);
  // The first answer still names no model once the chat is read again.
  await expect(own.getByTestId('answered-by')).toHaveCount(0);
});
