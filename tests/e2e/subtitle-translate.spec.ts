/**
 * Subtitles translated in host mode with a local GGUF model written by the
 * test (tests/fixtures/models/gguf.ts; it answers a fixed sentence, held by
 * the engine to one string per cue): open the editor → Translate… → French;
 * the progress counts the cues, the translated track opens in the editor
 * with the source's cues, and exports as a bilingual SRT (the original line
 * above the translation, same timings). Axe in both themes on the dialog.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { parseSubtitles } from '../../src/shared/subtitles/index';
import { fixedSentence, installTinyGguf } from '../fixtures/models/gguf';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';
import { snap } from './snap';

const SAID = ['Bonsoir', 'tout', 'le', 'monde', '.'];

/** A finished transcript of `sentences`, one every 4 s; answers the cues its editor will show. */
function seed(dataDir: string, title: string, sentences: string[]): { start: number; end: number; text: string }[] {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const { recordingId, transcriptId } = lib.recordings.add({
    title,
    source: `${title}.wav`,
    sourceKind: 'file',
    sizeBytes: 1,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  const words: Word[] = sentences.flatMap((text, s) =>
    text.split(' ').map((w, i) => ({ text: w, start: s * 4000 + i * 300, end: s * 4000 + i * 300 + 250, confidence: 0.9, speaker: null })),
  );
  lib.transcripts.complete(transcriptId, {
    remoteId: null,
    text: sentences.join(' '),
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'test',
    durationMs: (words.at(-1)?.end ?? 0) + 500,
  });
  const cues = lib.subtitles.cues(recordingId).cues.map((c) => ({ start: c.start, end: c.end, text: c.text }));
  lib.close();
  return cues;
}

test.describe('subtitle translation', () => {
  test('Translate… makes a French track with the same cues, which opens in the editor and exports bilingual', async ({ page, host }) => {
    installTinyGguf(join(host.dataDir, 'models'), 'tiny-subtitles', { words: SAID });
    const source = seed(host.dataDir, 'Town hall', [
      'Good evening and welcome to the town hall.',
      'Tonight we talk about the new library',
      'and the park that will open next spring.',
      'Questions come at the end of the evening.',
    ]);
    await host.restart();
    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText('Connected');
    await page.getByRole('button', { name: 'Open Town hall' }).click();
    await page.getByRole('button', { name: 'Subtitles' }).click();
    await expect(page.getByTestId('cue-row')).toHaveCount(source.length);

    await page.getByRole('button', { name: 'Translate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Translate subtitles' });
    await dialog.getByRole('combobox', { name: 'Translate into' }).fill('French');
    await dialog.getByRole('button', { name: 'Translate', exact: true }).click();
    // Progress by cue, then the track, ready.
    await expect(dialog.getByTestId('translate-progress')).toContainText(`${source.length} of ${source.length} cues translated`, { timeout: 120_000 });
    await expect(dialog.getByText('“Town hall (French)” is ready')).toBeVisible();
    await snap(page, 'subtitle-translate-done');
    await expectNoAxeViolationsInBothThemes(page, 'subtitle-translate-done', 'subtitle translate dialog');

    await dialog.getByRole('button', { name: 'Open the translation' }).click();
    const rows = page.getByTestId('cue-row');
    await expect(rows).toHaveCount(source.length);
    await expect(rows.first()).toContainText(fixedSentence(SAID));

    await page.getByRole('toolbar', { name: 'Subtitles' }).getByRole('button', { name: 'Export…' }).click();
    const exporting = page.getByRole('dialog', { name: 'Export subtitles' });
    await exporting.getByRole('radio', { name: /Bilingual/ }).check();
    await snap(page, 'subtitle-translate-export');
    const [download] = await Promise.all([page.waitForEvent('download'), exporting.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('Town hall (French).srt');
    let srt = '';
    for await (const chunk of await download.createReadStream()) srt += chunk.toString();
    const cues = parseSubtitles(srt).doc.cues;
    expect(cues.map((c) => [c.start, c.end])).toEqual(source.map((c) => [c.start, c.end]));
    expect(cues.map((c) => c.text)).toEqual(source.map((c) => `${c.text}\n${fixedSentence(SAID)}`));
  });
});
