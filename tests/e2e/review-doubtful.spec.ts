/**
 * Review of doubtful words over a transcript whose confidences the test chose (filled through the app's own
 * Library service, a real flite WAV as its audio): F8 walks the doubtful words, plays half a second either
 * side of each and puts the caret in it; a correction and an accept each take one off the count, the accept
 * without changing the text and across a reload; the threshold changes the count; a model that gives no
 * confidences shows no review, and the details panel says where confidences come from. axe, light and dark.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';
import { fliteWav } from './seed';

const text =
  'Welcome to the quarterly review. We will look at the market, the budget and the product launch. ' +
  'Then the design team will answer questions about the schedule, the research and the customer interviews.';
/** Word index → confidence of the doubtful ones (under the default 70%); every other word is 0.95. */
const DOUBTFUL: Record<number, number> = { 5: 0.3, 12: 0.55, 20: 0.4, 30: 0.65 };

function wordsFor(): Word[] {
  return text.split(' ').map((t, i) => ({ text: t, start: 300 + i * 300, end: 300 + i * 300 + 240, confidence: DOUBTFUL[i] ?? 0.95, speaker: null }));
}

function seed(dataDir: string, wav: string): void {
  const lib = new Library(dataDir);
  const add = (title: string, region: 'us' | 'local', model: string) => {
    const words = wordsFor();
    const { recordingId, transcriptId } = lib.recordings.add({
      title,
      source: `${title}.wav`,
      sourceKind: 'file',
      sizeBytes: 1000,
      region,
      baseUrl: null,
      options: {},
    });
    lib.transcripts.complete(transcriptId, {
      remoteId: `r-${title}`,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en_us',
      model,
      durationMs: 12_000,
    });
    lib.audio.attach(recordingId, wav);
  };
  add('Doubtful words', 'us', 'universal-2');
  add('No confidences', 'local', 'moonshine-tiny-en');
  lib.close();
}

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: `Open ${title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

const audioState = (page: Page) => page.getByTestId('audio').evaluate((a: HTMLAudioElement) => ({ t: a.currentTime, paused: a.paused }));

/** F8 went to word `i`: its editor has the caret with the word selected, and the player played [start − 0.5 s, end + 0.5 s] and stopped. */
async function expectAt(page: Page, i: number): Promise<void> {
  const w = wordsFor()[i] as Word;
  const field = page.getByRole('textbox', { name: `Correct word ${i + 1}` });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(w.text);
  expect(await field.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, w.text.length]);
  const from = Math.max(0, w.start - 500) / 1000;
  const to = (w.end + 500) / 1000;
  // It starts inside the window, plays, then pauses with the playhead at the window's end.
  const started = await audioState(page);
  expect(started.t).toBeGreaterThanOrEqual(from - 0.01);
  expect(started.t).toBeLessThanOrEqual(to + 0.01);
  await expect.poll(async () => (await audioState(page)).paused, { timeout: 30_000 }).toBe(true);
  await expect.poll(async () => (await audioState(page)).t).toBeCloseTo(to, 2);
}

test.describe('review of doubtful words', () => {
  test('walks the doubtful words: corrects one, accepts one, keeps the count across a reload', async ({ page, host }) => {
    const wav = fliteWav(mkdtempSync(join(tmpdir(), 'verbatim-review-')), 'review.wav', text);
    seed(host.dataDir, wav);
    await page.goto(host.url);
    await open(page, 'Doubtful words');
    await expect.poll(() => page.getByTestId('audio').evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThan(0);
    const count = page.getByTestId('review-count');
    await expect(count).toHaveText('4 doubtful words left');
    await expect(page.getByTestId('details-confidence-source')).toHaveText('Word confidences from the transcription service.');

    // F8: the first doubtful word, "We" (index 5). Typing replaces it; Enter saves the correction.
    await page.getByTestId('transcript-body').focus();
    await page.keyboard.press('F8');
    await expectAt(page, 5);
    await page.keyboard.type('Phoebe');
    await page.keyboard.press('Enter');
    await expect(count).toHaveText('3 doubtful words left');
    const fixed = page.locator('.w[data-i="5"]');
    await expect(fixed).toHaveText('Phoebe');
    await expect(fixed).toHaveClass(/w--fixed/);

    // The button does what F8 does: the next one, index 12. Enter on it as it is accepts it: the text stays.
    await page.getByRole('button', { name: 'Next doubtful' }).click();
    await expectAt(page, 12);
    await page.keyboard.press('Enter');
    await expect(count).toHaveText('2 doubtful words left');
    const accepted = page.locator('.w[data-i="12"]');
    await expect(accepted).toHaveText((wordsFor()[12] as Word).text);
    await expect(accepted).not.toHaveClass(/w--low|w--fixed/);
    await expect(page.getByTestId('transcript-body')).toBeFocused();

    // Shift+F8 goes back: the one before 12 still doubtful, round the start, is the last (index 30).
    await page.keyboard.press('Shift+F8');
    await expectAt(page, 30);
    await page.keyboard.press('Escape');
    await expect(count).toHaveText('2 doubtful words left');
    await expectNoAxeViolationsInBothThemes(page, 'transcript in review', 'review-transcript');

    // The accepted word stays accepted after a reload.
    await page.reload();
    if (!(await page.getByRole('heading', { level: 1, name: 'Doubtful words' }).isVisible())) await open(page, 'Doubtful words');
    await expect(count).toHaveText('2 doubtful words left');
    await page.keyboard.press('F8');
    await expectAt(page, 20);

    // The threshold: under 50% leaves only the 40% word (30 is at 65%).
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Doubtful below' }).selectOption('0.5');
    await expect(count).toHaveText('1 doubtful word left');
    await page.getByRole('combobox', { name: 'Doubtful below' }).selectOption('0.7');
    await expect(count).toHaveText('2 doubtful words left');

    // The subtitle editor: F8 selects the cue that holds the next doubtful word (30, "the" before "customer"), plays
    // around it with the editor's own player and selects the word in the cue's text; Ctrl+Enter on it unchanged accepts it.
    await page.getByRole('button', { name: 'Subtitles' }).click();
    const cueText = page.getByRole('textbox', { name: /^Text of cue/ });
    await expect(cueText).toBeVisible();
    await page.keyboard.press('F8');
    await expect(cueText).toBeFocused();
    await expect
      .poll(() =>
        cueText.evaluate(
          (el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd) + el.value.slice(el.selectionEnd, el.selectionEnd + 9),
        ),
      )
      .toBe('the customer');
    const media = page.getByTestId('subtitle-media');
    const w30 = wordsFor()[30] as Word;
    await expect.poll(() => media.evaluate((a: HTMLMediaElement) => a.paused), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => media.evaluate((a: HTMLMediaElement) => a.currentTime)).toBeCloseTo((w30.end + 500) / 1000, 2);
    await page.keyboard.press('Control+Enter');
    await expect(count).toHaveText('1 doubtful word left');
    await expectNoAxeViolationsInBothThemes(page, 'subtitle editor in review', 'review-subtitles');
    await page.getByRole('button', { name: 'Subtitles' }).click();

    // A model that gives no confidences: no review, and the details say so.
    await page.getByRole('button', { name: 'Back to the library' }).click();
    await open(page, 'No confidences');
    await expect(page.getByTestId('details-confidence-source')).toHaveText(/Moonshine tiny \(English, int8\) gives no word confidences/);
    await expect(page.getByTestId('review')).toHaveCount(0);
    await page.keyboard.press('F8');
    await expect(page.getByRole('textbox', { name: /Correct word/ })).toHaveCount(0);
  });
});
