/**
 * The People view over voices the app's own Library service remembered (two recordings, Dana named in one
 * and recognised in the other, Lee named in the second): the list shows each voice and its recordings with
 * how sure the recognition was; the match level is saved; rename, merge and forget work from the keyboard;
 * a recording opens from the list; the library search narrowed to one person ("Said by"). axe, light and dark.
 */
import { Library } from '../../src/main/services/library/library';
import { addCompleted } from '../support/library';
import type { Word } from '../../src/shared/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

function seed(dataDir: string): void {
  const lib = new Library(dataDir);
  const add = (title: string) => {
    const words: Word[] = 'Good morning everyone. Thanks, glad to be here.'.split(' ').map((t, i) => ({
      text: t,
      start: 300 + i * 400,
      end: 600 + i * 400,
      confidence: 0.95,
      speaker: i < 3 ? 'A' : 'B',
    }));
    return addCompleted(lib, title, words, { region: 'us', sizeBytes: 1000, model: 'universal-2', durationMs: 4000 });
  };
  const monday = add('Monday stand-up');
  const tuesday = add('Tuesday stand-up');
  const people = lib.voices.people;
  const dana = people.remember(monday.recordingId, 'Dana', 'test-model', [{ vector: Float32Array.from([1, 0, 0]), ms: 1200 }], 'A');
  people.setMatch(monday.recordingId, monday.transcriptId, 'A', dana, 1);
  people.setMatch(tuesday.recordingId, tuesday.transcriptId, 'A', dana, 0.91);
  const lee = people.remember(tuesday.recordingId, 'Lee', 'test-model', [{ vector: Float32Array.from([0, 1, 0]), ms: 1600 }], 'B');
  people.setMatch(tuesday.recordingId, tuesday.transcriptId, 'B', lee, 1);
  // Tuesday's kept turn voiceprints: A's three words, B's five.
  lib.voices.saveTurns(tuesday.transcriptId, [
    { firstWord: 0, lastWord: 2, start: 300, end: 1400, model: 'test-model', vector: Float32Array.from([1, 0, 0]) },
    { firstWord: 3, lastWord: 7, start: 1500, end: 3400, model: 'test-model', vector: Float32Array.from([0, 1, 0]) },
  ]);
  lib.close();
}

test.describe('People', () => {
  test('lists remembered voices and their recordings; rename, merge, forget; the match level', async ({ page, host }) => {
    seed(host.dataDir);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'People' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
    const voices = page.getByRole('list', { name: 'Remembered voices' });
    const dana = voices.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Dana' }) });
    await expect(dana).toContainText('Monday stand-up');
    await expect(dana).toContainText('named there');
    await expect(dana).toContainText('Tuesday stand-up recognised, 91% match');
    await expect(voices.getByRole('heading', { level: 2 })).toHaveText(['Dana', 'Lee']);
    await expectNoAxeViolationsInBothThemes(page, 'people', 'people');

    // The match level is a setting.
    const level = page.getByRole('spinbutton', { name: /Recognise a voice at a match of at least/ });
    await level.fill('85');
    await level.press('Enter');
    await page.reload();
    await page.getByRole('button', { name: 'People' }).click();
    await expect(page.getByRole('spinbutton', { name: /Recognise a voice/ })).toHaveValue('85');

    // Rename from the keyboard.
    await dana.getByRole('button', { name: 'Rename' }).click();
    const field = page.getByRole('textbox', { name: 'New name' });
    await expect(field).toBeFocused();
    await field.fill('Dana Ruiz');
    await page.keyboard.press('Enter');
    await expect(voices.getByRole('heading', { level: 2 })).toHaveText(['Dana Ruiz', 'Lee']);

    // Merge Lee into Dana Ruiz, with the form open checked by axe too.
    const lee = voices.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Lee' }) });
    await lee.getByRole('button', { name: 'Merge…' }).click();
    await expect(page.getByRole('combobox', { name: 'Merge Lee into' })).toBeFocused();
    await expectNoAxeViolationsInBothThemes(page, 'people merge form', 'people-merge');
    await lee.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(voices.getByRole('heading', { level: 2 })).toHaveText(['Dana Ruiz']);

    // Forget asks first, then the list is empty.
    const merged = voices.getByRole('listitem').first();
    await merged.getByRole('button', { name: 'Forget' }).click();
    await expect(page.getByText('Forget Dana Ruiz’s voice?')).toBeVisible();
    // For a person who asks to be forgotten: the transcripts that show the name lose it too.
    await page.getByRole('checkbox', { name: /Also replace “Dana Ruiz” with “Speaker A”/ }).check();
    await expectNoAxeViolationsInBothThemes(page, 'people forget form', 'people-forget');
    await page.getByRole('button', { name: 'Forget voice' }).click();
    await expect(page.getByText('No voices yet. Name a speaker in a transcript to remember the voice.')).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'people empty', 'people-empty');
    await page.getByRole('button', { name: 'Library' }).click();
    await page.getByRole('button', { name: 'Open Monday stand-up' }).click();
    const body = page.getByTestId('transcript-body');
    await expect(body.getByRole('button', { name: /: rename$/ })).toHaveText(['Speaker A', 'Speaker B']);
  });

  test('a recording opens from its voice; search narrowed to what one person said', async ({ page, host }) => {
    seed(host.dataDir);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'People' }).click();
    const said = page.getByRole('search', { name: 'What Dana said' });
    await said.getByRole('searchbox', { name: 'Search what Dana said' }).fill('glad');
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText('Nothing found.');
    await said.getByRole('searchbox', { name: 'Search what Dana said' }).fill('morning');
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText('2 places found.');
    await said.getByRole('button', { name: 'Tuesday stand-up at 0:00' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Tuesday stand-up' })).toBeVisible();
    await page.getByRole('button', { name: 'People' }).click();
    await page.getByRole('button', { name: 'Open Monday stand-up' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Monday stand-up' })).toBeVisible();
  });

  test('the library search narrowed to one person finds only what that person said', async ({ page, host }) => {
    seed(host.dataDir);
    await page.goto(host.url);
    const box = page.getByRole('searchbox', { name: 'Search every transcript' });
    await box.fill('glad');
    const results = page.getByTestId('search-results');
    await expect(results.getByRole('heading', { level: 2 })).toHaveText('2 matches for “glad”');
    // The picker follows the search box in the tab order.
    await box.press('Tab');
    const picker = page.getByRole('combobox', { name: 'Said by' });
    await expect(picker).toBeFocused();
    await expect(picker.getByRole('option')).toHaveText(['Anyone', 'Dana', 'Lee']);
    await picker.selectOption({ label: 'Lee' });
    await expect(results.getByRole('heading', { level: 2 })).toHaveText('1 match for “glad” said by Lee');
    await expect(results.getByTestId('search-hit')).toHaveCount(1);
    await expect(results.getByTestId('search-hit')).toContainText('Tuesday stand-up');
    await expectNoAxeViolationsInBothThemes(page, 'library search said by one person', 'search-said-by');
    // Dana said "Good morning everyone." in both, and never "glad".
    await picker.selectOption({ label: 'Dana' });
    await expect(results.getByRole('heading', { level: 2 })).toHaveText('No matches for “glad” said by Dana');
    await box.fill('morning');
    await expect(results.getByRole('heading', { level: 2 })).toHaveText('2 matches for “morning” said by Dana');
    // Removing the narrowing from the results, by keyboard.
    const everyone = results.getByRole('button', { name: 'Search what everyone said' });
    await everyone.focus();
    await page.keyboard.press('Enter');
    await expect(results.getByRole('heading', { level: 2 })).toHaveText('2 matches for “morning”');
    await expect(picker).toHaveValue('');
    await expect(everyone).toHaveCount(0);
    await expect(results.getByRole('heading', { level: 2 })).toBeFocused();
  });

  test('the transcript says which voices were recognised, and re-clusters its speakers without transcribing again', async ({ page, host }) => {
    seed(host.dataDir);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Tuesday stand-up' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Tuesday stand-up' })).toBeVisible();
    await expect(page.getByTestId('speaker-note')).toHaveText('Recognised: Dana (91% match).');
    await expectNoAxeViolationsInBothThemes(page, 'transcript with speaker groups', 'speaker-groups');
    await page.getByRole('combobox', { name: 'Speakers' }).selectOption('1');
    await page.getByRole('button', { name: 'Re-cluster' }).click();
    const body = page.getByTestId('transcript-body');
    await expect(body.getByRole('button', { name: /: rename$/ })).toHaveCount(1);
    // One group now holds both voices; it keeps the name of the voice it is most like (an even tie: the first named).
    await expect(body.getByRole('button', { name: 'Dana: rename' })).toHaveCount(1);
    await expect(page.getByTestId('speaker-note')).toHaveText('Recognised: Dana (71% match).');
  });
});
