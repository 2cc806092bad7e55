/**
 * The transcript screen and library list over a library filled through the
 * app's own Library service (real SQLite + FTS, a real flite WAV as the audio
 * copy): reading, seeking, find, speaker names, corrections, search hits.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import { FIRST_SCREEN_WORDS } from '../../src/renderer/src/stores/transcript';
import { findWords, normalizeWord } from '../../src/renderer/src/lib/words';
import type { Word } from '../../src/shared/library';
import { expect, test } from './host';
import { fliteWav, makeWords, seedLibrary } from './seed';
import { snap } from './snap';

const speech =
  'Welcome to the quarterly review. We will look at the market, the budget and the product launch. ' +
  'Then the design team will answer questions about the schedule, the research and the customer interviews. ' +
  'Thank you all for joining this meeting today, and let us begin with the report.';

/** The words of each of a seeded library's transcripts, in the order they were made. */
function seededWords(dataDir: string, ids: string[]): Word[][] {
  const lib = new Library(dataDir);
  try {
    return ids.map((id) => lib.transcripts.get(id).words);
  } finally {
    lib.close();
  }
}

// Playwright runs many files in one worker process: a library seeded here must not depend on which ran before
// (the first transcript below once had no low-confidence word to show, after another file had seeded first).
test('a seeded library is the same whatever was seeded before it in this worker', () => {
  const first = join(mkdtempSync(join(tmpdir(), 'verbatim-seed-')), 'data');
  const again = join(mkdtempSync(join(tmpdir(), 'verbatim-seed-')), 'data');
  const opts = { count: 3, wordsPer: 60, titlePrefix: 'Team meeting', speakers: ['A', 'B'] };
  const a = seedLibrary(first, opts);
  makeWords(500);
  seedLibrary(join(mkdtempSync(join(tmpdir(), 'verbatim-seed-')), 'data'), { count: 5, wordsPer: 60 });
  const b = seedLibrary(again, opts);
  const words = seededWords(first, a);
  expect(seededWords(again, b)).toEqual(words);
  // What the transcript screen test below relies on: its first transcript has words to mark as doubtful.
  expect(words[0]!.filter((w) => w.confidence < 0.7).length).toBeGreaterThan(0);
});

test.describe('transcript screen', () => {
  test('reads, seeks, finds, renames speakers and corrects words', async ({ page, host }) => {
    const wav = fliteWav(mkdtempSync(join(tmpdir(), 'verbatim-wav-')), 'review.wav', `${speech} ${speech}`);
    seedLibrary(host.dataDir, { count: 40, wordsPer: 60, titlePrefix: 'Team meeting', speakers: ['A', 'B'], audioFile: wav, tags: ['weekly', 'clients'] });
    await page.goto(host.url);

    await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
    await expect(page.getByText('40 recordings')).toBeVisible();
    const rows = page.getByTestId('library-row');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeLessThan(40); // virtualized: only what is on screen is in the DOM
    await snap(page, 'library-completed-light');

    // Sort by title ascending and open the first item.
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await expect(rows.first()).toContainText('Team meeting 00001');
    await rows.first().getByRole('button', { name: 'Open Team meeting 00001' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Team meeting 00001' })).toBeVisible();
    // Focus starts at the transcript's title, not at the top of the document.
    await expect(page.getByRole('heading', { level: 1, name: 'Team meeting 00001' })).toBeFocused();

    const audio = page.getByTestId('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThan(0);
    const body = page.getByTestId('transcript-body');
    const words = body.locator('.w');
    await expect(words.first()).toBeVisible();
    // Low-confidence words are marked and say why on hover.
    const low = body.locator('.w--low').first();
    await expect(low).toHaveAttribute('title', /Low confidence \(\d+%\)/);

    // Clicking a word seeks the player to it and highlights it.
    const target = words.nth(20);
    await target.click();
    const t = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    expect(t).toBeGreaterThan(2);
    // A deadline, not a speed: on a loaded machine the seek and the highlight after it can take a while.
    await expect(target).toHaveClass(/w--active/, { timeout: 30_000 });

    // Space plays; the highlight moves with the audio.
    await page.keyboard.press('Space');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 30_000 }).toBeGreaterThan(t + 0.5);
    await snap(page, 'transcript-playing-light');
    await page.keyboard.press('k');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    const before = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(before - 4);

    // Find with count and next/previous. Find starts at the first match at or after the word being
    // spoken, so the player goes back to the first word (how far it played before the pause depends on the machine's load).
    await words.first().click();
    await expect(words.first()).toHaveClass(/w--active/);
    await page.getByRole('button', { name: 'Find' }).click();
    const firstWord = (await words.first().textContent())?.replace(/\W/g, '') ?? '';
    await page.getByRole('searchbox', { name: 'Find in transcript' }).fill(firstWord);
    await expect(page.getByTestId('find-count')).toHaveText(/^1 of \d+$/);
    const total = Number((await page.getByTestId('find-count').textContent())?.split(' of ')[1]);
    if (total > 1) {
      await page.getByRole('button', { name: 'Next match' }).click();
      await expect(page.getByTestId('find-count')).toHaveText(`2 of ${total}`);
      await page.getByRole('button', { name: 'Previous match' }).click();
    }
    await expect(page.getByTestId('find-count')).toHaveText(`1 of ${total}`);
    await expect(body.locator('.w--current').first()).toBeVisible();
    await page.getByRole('button', { name: 'Close find' }).click();
    await expect(page.getByRole('button', { name: 'Find' })).toBeFocused();

    // Rename speaker A: every paragraph of A shows the name.
    await body.getByRole('button', { name: 'Speaker A: rename' }).first().click();
    await page.getByRole('textbox', { name: 'Name for speaker A' }).fill('Dana');
    await page.keyboard.press('Enter');
    await expect(body.getByRole('button', { name: 'Dana: rename' }).first()).toBeVisible();

    // Correct a word in place: stored, marked, and in the export.
    const fix = words.nth(5);
    await fix.dblclick();
    const editor = page.getByRole('textbox', { name: 'Correct word 6' });
    await editor.fill('Verbatim');
    await editor.press('Enter');
    await expect(body.locator('.w--fixed')).toHaveText('Verbatim');
    // Focus comes back to the text, so the shortcuts and Tab go on from there.
    await expect(body).toBeFocused();
    await page.getByRole('button', { name: 'Export…' }).click();
    // The dialog starts on its field, and single-key shortcuts do not act behind it.
    await expect(page.getByLabel('Format')).toBeFocused();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('k');
    await page.keyboard.press('e');
    // Shown by order: a change made after the keys has rendered, so anything the keys did has too.
    await page.getByLabel('Format').selectOption('txt');
    await expect(page.getByLabel('Format')).toHaveValue('txt');
    expect(await audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    await expect(page.getByRole('textbox', { name: /^Correct word/ })).toHaveCount(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Export' }).click()]);
    const text = await download.createReadStream().then(async (stream) => {
      let out = '';
      for await (const chunk of stream) out += chunk.toString();
      return out;
    });
    expect(text).toContain('Verbatim');
    expect(text).toContain('Dana:');
    await snap(page, 'transcript-edited-light');

    // Reload: name and correction came from the library, not from memory.
    await page.reload();
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await rows.first().getByRole('button', { name: 'Open Team meeting 00001' }).click();
    await expect(page.getByTestId('transcript-body').getByRole('button', { name: 'Dana: rename' }).first()).toBeVisible();
    await expect(page.getByTestId('transcript-body').locator('.w').nth(5)).toHaveText('Verbatim');

    // Dark theme of the same screen.
    await page.emulateMedia({ colorScheme: 'dark' });
    await snap(page, 'transcript-dark');

    // Back: focus returns to the row that opened the transcript.
    await page.getByRole('button', { name: 'Back to the library' }).click();
    await expect(page.getByRole('button', { name: 'Open Team meeting 00001' })).toBeFocused();
  });

  test('library search shows highlighted hits and opens the transcript at the hit', async ({ page, host }) => {
    const wav = fliteWav(mkdtempSync(join(tmpdir(), 'verbatim-wav-')), 'review.wav', `${speech} ${speech}`);
    seedLibrary(host.dataDir, { count: 12, wordsPer: 60, titlePrefix: 'Interview', audioFile: wav });
    await page.goto(host.url);
    await page.getByRole('searchbox', { name: 'Search every transcript' }).fill('budget');
    const hits = page.getByTestId('search-hit');
    await expect(hits.first()).toBeVisible();
    await expect(hits.first().locator('mark').first()).toHaveText(/budget/i);
    await snap(page, 'search-hits-light');
    const time = (await hits.first().locator('.hit__time').textContent()) ?? '';
    const [m, s] = time.split(':').map(Number);
    const atSeconds = (m ?? 0) * 60 + (s ?? 0);
    await hits.first().click();
    const audio = page.getByTestId('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(atSeconds);
    await expect(page.getByTestId('transcript-body').locator('.w--active')).toBeVisible();
  });

  test('a long transcript opens on its first screen, then is whole: find counts every match and the last words are there', async ({ page, host }) => {
    const [id] = seedLibrary(host.dataDir, { count: 1, wordsPer: 8_000, titlePrefix: 'Board meeting', speakers: ['A', 'B'] }) as [string];
    const lib = new Library(host.dataDir);
    const words = lib.transcripts.get(id).words;
    lib.close();
    // A word that is in the whole more often than in its first screen (stores/transcript.ts FIRST_SCREEN_WORDS).
    const term = normalizeWord(words[0]?.text ?? '');
    const all = findWords(words, term).matches.length;
    expect(all).toBeGreaterThan(findWords(words.slice(0, FIRST_SCREEN_WORDS), term).matches.length);

    // What the page asks the bridge for: the first screen, then the whole.
    const gets: unknown[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        const m = typeof f.payload === 'string' && f.payload.includes('"library.get"') ? (JSON.parse(f.payload) as { input: unknown }) : null;
        if (m) gets.push(m.input);
      }),
    );
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Board meeting 00001' }).click();
    const body = page.getByTestId('transcript-body');
    await expect(body.locator('.w').first()).toBeVisible();
    // The rest has come when the text is no longer busy.
    await expect(body).not.toHaveAttribute('aria-busy', 'true');
    expect(gets).toEqual([{ id, firstWords: FIRST_SCREEN_WORDS }, { id }]);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('searchbox', { name: 'Find in transcript' }).fill(term);
    await expect(page.getByTestId('find-count')).toHaveText(`1 of ${all}`);
    await page.getByRole('searchbox', { name: 'Find in transcript' }).press('Escape');
    // The end of the text scrolls into view: its last word is on screen.
    await body.focus();
    await page.keyboard.press('End');
    await expect(body.locator(`[data-i="${words.length - 1}"]`)).toBeVisible();
  });
});

test.describe('library management', () => {
  test('renames, multi-selects to tag and delete, filters by tag, and checks a URL before adding it', async ({ page, host }) => {
    seedLibrary(host.dataDir, { count: 6, wordsPer: 30, titlePrefix: 'Call' });
    await page.goto(host.url);
    const rows = page.getByTestId('library-row');
    await expect(page.getByText('6 recordings')).toBeVisible();

    // Rename in place.
    await page.getByRole('button', { name: 'Rename Call 00006' }).click();
    const title = page.getByRole('textbox', { name: 'New title for Call 00006' });
    await title.fill('Call with Dana');
    await title.press('Enter');
    await expect(page.getByRole('button', { name: 'Open Call with Dana' })).toBeVisible();

    // Select two, tag them, filter by the tag.
    await page.getByRole('checkbox', { name: 'Select Call with Dana' }).check();
    await page.getByRole('checkbox', { name: 'Select Call 00005' }).check();
    await expect(page.getByRole('toolbar', { name: 'Selection' })).toContainText('2 selected');
    await snap(page, 'library-selection-light');
    await page.getByRole('button', { name: 'Tag…' }).click();
    await page.getByRole('dialog').getByLabel('Tag').fill('follow-up');
    await page.getByRole('dialog').getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByLabel('Filter by tag').selectOption('follow-up');
    // exact: the toast now says "Tagged 2 recordings with …" too.
    await expect(page.getByText('2 recordings', { exact: true })).toBeVisible();
    await expect(rows).toHaveCount(2);

    // Delete one of them.
    await page.getByRole('checkbox', { name: 'Select Call 00005' }).check();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('1 recording', { exact: true })).toBeVisible();
    await page.getByLabel('Filter by tag').selectOption('');
    await expect(page.getByText('5 recordings')).toBeVisible();

    // Add from URL refuses what is not a web address, and says what it needs.
    await page.getByRole('button', { name: 'Add from URL' }).first().click();
    await page.getByLabel('Link to an audio or video file').fill('not a link');
    await page.getByRole('dialog').getByRole('button', { name: 'Transcribe' }).click();
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText('starts with https://');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
