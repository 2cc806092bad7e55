/**
 * Corrections that teach, in host mode: "Phebe" corrected to "Phoebe" offers to learn the word (it
 * then shows in Settings → Vocabulary) and to fix it everywhere: the dialog previews the three other
 * transcripts, changes them, and the toast's Undo brings them back. Axe in light and dark.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

const texts: [string, string][] = [
  ['Interview', 'We met Phebe at the station today.'],
  ['Call one', 'Then Phebe said hello.'],
  ['Call two', 'phebe, are you there? Yes, Phebe.'],
  ['Call three', 'I asked (Phebe) twice.'],
];

function seed(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  texts.forEach(([title, text], i) => {
    const words: Word[] = text.split(' ').map((t, k) => ({ text: t, start: 300 + k * 400, end: 600 + k * 400, confidence: 0.95, speaker: null }));
    const { transcriptId } = lib.recordings.add(
      { title, source: `${title}.wav`, sourceKind: 'file', sizeBytes: 1000, region: 'local', baseUrl: null, options: {} },
      { now: new Date(Date.parse('2026-03-01T09:00:00Z') + i * 60_000).toISOString() },
    );
    lib.transcripts.complete(transcriptId, {
      remoteId: null,
      text,
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.95,
      language: 'en_us',
      model: 'pocketsphinx',
      durationMs: 300 + words.length * 400,
    });
  });
  lib.close();
}

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: `Open ${title}`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

async function backToLibrary(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Back to the library' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
}

const bodyText = (page: Page) => page.getByTestId('transcript-body').locator('.para__text');

test.describe('corrections that teach', () => {
  test('a spelling correction is learned into the vocabulary and fixed everywhere, with one undo', async ({ page, host }) => {
    seed(host.dataDir);
    await page.goto(host.url);
    await open(page, 'Interview');

    const phebe = page.getByTestId('transcript-body').locator('.w', { hasText: /^Phebe$/ });
    await phebe.dblclick();
    const editor = page.getByRole('textbox', { name: /^Correct word/ });
    await editor.fill('Phoebe');
    await editor.press('Enter');
    const offer = page.getByTestId('correction-offer');
    await expect(offer).toContainText('You changed “Phebe” to “Phoebe”.');
    await expectNoAxeViolationsInBothThemes(page, 'correction offer', 'vocabulary-offer');
    await page.emulateMedia({ colorScheme: 'light' });

    await offer.getByRole('button', { name: 'Add “Phoebe” to vocabulary' }).click();
    await expect(offer).toContainText('“Phoebe” is in your vocabulary.');

    await offer.getByRole('button', { name: 'Fix everywhere…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fix “Phebe” everywhere' });
    const items = dialog.getByTestId('fix-list').getByRole('listitem');
    await expect(items).toHaveCount(3);
    await expect(items.filter({ hasText: 'Call two' })).toContainText('2 times');
    await expectNoAxeViolationsInBothThemes(page, 'fix everywhere dialog', 'vocabulary-fix-dialog');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Change 4 words in 3 transcripts' }).click();
    await expect(dialog).toHaveCount(0);
    const toast = page.getByText('Changed “Phebe” to “Phoebe” 4 times in 3 transcripts.');
    await expect(toast).toBeVisible();

    await backToLibrary(page);
    await open(page, 'Call two');
    await expect(bodyText(page)).toHaveText('Phoebe, are you there? Yes, Phoebe.');

    // One undo brings all three back.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Undone: 3 transcripts are as before.')).toBeVisible();
    await expect(bodyText(page)).toHaveText('phebe, are you there? Yes, Phebe.');
    await backToLibrary(page);
    await open(page, 'Call three');
    await expect(bodyText(page)).toHaveText('I asked (Phebe) twice.');

    // The vocabulary in Settings holds the learned word, and can be edited there.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const section = page.getByTestId('vocabulary-section');
    await expect(section.getByTestId('vocabulary-list')).toHaveText(/Phoebe/);
    await section.getByLabel('Add words').fill('Kubernetes, Ottolenghi');
    await section.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(section.getByTestId('vocabulary-list').getByRole('listitem')).toHaveText(['Phoebe×', 'Kubernetes×', 'Ottolenghi×']);
    await section.getByRole('button', { name: 'Remove “Kubernetes” from the vocabulary' }).click();
    await expect(section.getByTestId('vocabulary-list').getByRole('listitem')).toHaveCount(2);
    // A term that does not fit is kept whole in the box and named with why; the one that fits is added.
    await section.getByLabel('Add words').fill('Anselm, one two three four five six seven');
    await section.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(section.getByRole('alert')).toHaveText(
      'Added 1. “one two three four five six seven” has 7 words; a term has at most 6. Add a shorter phrase, or its words one by one.',
    );
    await expect(section.getByLabel('Add words')).toHaveValue('one two three four five six seven');
    await section.getByRole('button', { name: 'Remove “Anselm” from the vocabulary' }).click();
    await expect(section.getByTestId('vocabulary-list').getByRole('listitem')).toHaveCount(2);
    await section.scrollIntoViewIfNeeded();
    await expectNoAxeViolationsInBothThemes(page, 'settings vocabulary', 'vocabulary-settings');

    // Kept in main: a reload shows the same list.
    await page.reload();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(page.getByTestId('vocabulary-list').getByRole('listitem')).toHaveText(['Phoebe×', 'Ottolenghi×']);
  });
});
