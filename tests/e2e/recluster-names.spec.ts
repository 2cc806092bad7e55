/**
 * Names follow their voices through a re-cluster, in host mode: Speaker A of a meeting (kept turn
 * voiceprints, so no engine is needed) is named Dana in the transcript, the speakers are re-clustered to 1
 * and then Auto; the transcript reads Dana and Speaker B again (Dana's two paragraphs in a row say her name
 * once), People lists the meeting under Dana, and "Search what Dana said" finds her words and not the other
 * voice's. axe, light and dark.
 */
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { addCompleted } from '../support/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

/** Dana, Dana again after a pause, the other voice, Dana, the other voice: each turn one sentence, its print kept. */
function seed(dataDir: string): void {
  const lib = new Library(dataDir);
  const plan: { who: 'A' | 'B'; text: string; pause: number }[] = [
    { who: 'A', text: 'Let us start with the budget.', pause: 0 },
    { who: 'A', text: 'The numbers look fine this quarter.', pause: 3000 },
    { who: 'B', text: 'Lunch is at noon today.', pause: 1500 },
    { who: 'A', text: 'Thanks everyone for coming.', pause: 1500 },
    { who: 'B', text: 'See you then.', pause: 1500 },
  ];
  const words: Word[] = [];
  const kept: { firstWord: number; lastWord: number; start: number; end: number; model: string; vector: Float32Array }[] = [];
  let t = 0;
  plan.forEach((p, k) => {
    t += p.pause;
    const first = words.length;
    for (const text of p.text.split(' ')) {
      words.push({ text, start: t, end: t + 350, confidence: 0.95, speaker: p.who });
      t += 400;
    }
    const v = p.who === 'A' ? [1, 0, 0.05 * k] : [0.05 * k, 1, 0];
    kept.push({ firstWord: first, lastWord: words.length - 1, start: words[first]!.start, end: t, model: 'test-model', vector: Float32Array.from(v) });
  });
  const ids = addCompleted(lib, 'Planning meeting', words, { region: 'us', sizeBytes: 1000, model: 'universal-2' });
  lib.voices.saveTurns(ids.transcriptId, kept);
  lib.close();
}

test.describe('names through a re-cluster', () => {
  test('Speaker A named Dana, re-clustered to 1 and then Auto, is still Dana in the transcript, People and search', async ({ page, host }) => {
    seed(host.dataDir);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Planning meeting' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Planning meeting' })).toBeVisible();
    const body = page.getByTestId('transcript-body');
    const labels = () => body.getByRole('button', { name: /: rename$/ }).evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
    // Dana's first two paragraphs are one speaker's: her name is said once.
    await expect.poll(labels).toEqual(['Speaker A', 'Speaker B', 'Speaker A', 'Speaker B']);

    await body.getByRole('button', { name: 'Speaker A: rename' }).first().click();
    await page.getByRole('textbox', { name: 'Name for speaker A' }).fill('Dana');
    await page.keyboard.press('Enter');
    await expect.poll(labels).toEqual(['Dana', 'Speaker B', 'Dana', 'Speaker B']);

    const speakers = page.getByRole('combobox', { name: 'Speakers' });
    await speakers.selectOption('1');
    await page.getByRole('button', { name: 'Re-cluster' }).click();
    await expect.poll(labels).toEqual(['Dana']);

    await speakers.selectOption('auto');
    await page.getByRole('button', { name: 'Re-cluster' }).click();
    await expect.poll(labels).toEqual(['Dana', 'Speaker B', 'Dana', 'Speaker B']);
    // Named here: no recognition to report.
    await expect(page.getByTestId('speaker-note')).toHaveText('');
    await expectNoAxeViolationsInBothThemes(page, 'transcript after re-cluster with a named voice', 'recluster-names');

    await page.getByRole('button', { name: 'People' }).click();
    const dana = page
      .getByRole('list', { name: 'Remembered voices' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Dana' }) });
    await expect(dana).toContainText('Planning meeting named there');
    const said = page.getByRole('search', { name: 'What Dana said' });
    const box = said.getByRole('searchbox', { name: 'Search what Dana said' });
    await box.fill('budget');
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText('1 place found.');
    await box.fill('lunch');
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText('Nothing found.');
    await expectNoAxeViolationsInBothThemes(page, 'people after re-cluster', 'recluster-names-people');
  });
});
