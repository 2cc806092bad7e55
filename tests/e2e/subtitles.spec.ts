/**
 * The subtitle editor in host mode, as a user works it: open a transcript →
 * Subtitles → change a word in a cue, split a cue, retime one by dragging on
 * the waveform, undo once → export SRT; the file has exactly the expected
 * cues and the edited word, and the transcript view and search show it too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { Library } from '../../src/main/services/library/library';
import { buildCuesWith, builtInProfiles, editText, parseSubtitles, splitCue } from '../../src/shared/subtitles/index';
import { cueTime, parseCueTime } from '../../src/renderer/src/features/subtitles/time';
import { expectNoAxeViolations, expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';
import { fliteWav, seedLibrary } from './seed';
import { snap } from './snap';

const speech = 'Welcome to the quarterly review. We will look at the market, the budget and the product launch. Then the design team will answer questions.';

test.describe('subtitle editor', () => {
  test('edit a word, split, retime on the waveform, undo, export SRT: the file, the transcript and search agree', async ({ page, host }) => {
    const wav = fliteWav(mkdtempSync(join(tmpdir(), 'verbatim-wav-')), 'review.wav', `${speech} ${speech} ${speech}`);
    const [id] = seedLibrary(host.dataDir, { count: 1, wordsPer: 70, titlePrefix: 'Subtitled review', audioFile: wav });
    const lib = new Library(host.dataDir);
    const words = lib.transcripts.get(id!).words;
    lib.close();
    const built = buildCuesWith(words, builtInProfiles[0]!);

    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Subtitled review 00001' }).click();
    await page.getByRole('button', { name: 'Subtitles' }).click();
    const rows = page.getByTestId('cue-row');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeLessThan(built.length + 1);
    await expect(page.getByTestId('waveform').locator('div').first()).toBeVisible();
    await snap(page, 'subtitles-light');
    await expectNoAxeViolations(page, 'subtitles light');

    // 1. Change a word in the first cue.
    const firstWord = words[built[0]!.words![0]]!.text;
    const edited = built[0]!.text.replace(firstWord, 'Zanzibar');
    await rows.first().click();
    const text = page.getByRole('textbox', { name: 'Text of cue 1' });
    await text.fill(edited);
    await text.press('Control+Enter');
    await expect(rows.first()).toContainText('Zanzibar');

    // 2. Split the second cue at its middle word boundary (the button uses the caret).
    await rows.nth(1).click();
    const cue2 = page.getByRole('textbox', { name: 'Text of cue 2' });
    const at = built[1]!.text.replace(/\n/g, ' ').indexOf(' ', Math.floor(built[1]!.text.length / 2));
    await cue2.focus();
    await cue2.evaluate((el: HTMLTextAreaElement, pos) => {
      el.setSelectionRange(pos, pos);
      el.dispatchEvent(new Event('select', { bubbles: true }));
    }, at);
    await page.keyboard.press('Alt+s');
    await expect(page.getByRole('listbox', { name: `Cues (${built.length + 1})` })).toBeVisible();
    // The rows below the split moved down one and were renumbered: each shows its own number, times and text.
    const expected = splitCue(editText(built, 0, edited), 1, at, words, builtInProfiles[0]!);
    for (let i = 0; i < Math.min(6, expected.length); i++) {
      const row = rows.nth(i);
      await expect(row.locator('.cue__n')).toHaveText(String(i + 1));
      await expect(row.locator('.cue__text')).toHaveText(expected[i]!.text.replace(/\n/g, ' / '));
    }

    // 3. Retime the fourth cue by dragging its right edge on the waveform.
    await rows.nth(3).click();
    const region = page.locator(`[part~="region"]`).filter({ hasText: built[2]!.text.replace(/\n/g, ' ').slice(0, 12) });
    await expect(region.first()).toBeVisible();
    const box = await region.first().locator('[part~="region-handle-right"]').boundingBox();
    expect(box).not.toBeNull();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await page.mouse.down();
    await page.mouse.move(box!.x + 60, box!.y + box!.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /Undo Retime/);
    await snap(page, 'subtitles-edited-light');

    // 4. Undo once: the retime goes, the word and the split stay.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /Undo Split/);
    await expect(page.getByText('Saved')).toBeVisible();

    // 5. Export SRT: exactly the expected cues.
    await page.getByRole('button', { name: 'Export…' }).last().click();
    await expect(page.getByRole('dialog', { name: 'Export subtitles' })).toBeVisible();
    await expectNoAxeViolations(page, 'export dialog light');
    await page.getByLabel('Format').selectOption('srt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('Subtitled review 00001.srt');
    let srt = '';
    for await (const chunk of await download.createReadStream()) srt += chunk.toString();
    const got = parseSubtitles(srt).doc.cues.map((c) => [c.start, c.end, c.text]);
    expect(got).toEqual(expected.map((c) => [c.start, c.end, c.text]));
    expect(srt).toContain('Zanzibar');

    // The playhead follows the selection once it rests; Space right after a move plays from the selected cue.
    const media = page.getByTestId('subtitle-media');
    const now = () => media.evaluate((a: HTMLMediaElement) => a.currentTime);
    await page.getByRole('listbox').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(now).toBeCloseTo(expected[2]!.start / 1000, 2);
    await page.keyboard.press('ArrowDown');
    // Where playback began, noted by the element as it starts (read later, it has moved on by however long a busy machine took).
    type Noting = HTMLMediaElement & { playedFrom?: number };
    await media.evaluate((a: Noting) => {
      delete a.playedFrom;
      a.addEventListener('play', () => (a.playedFrom = a.currentTime), { once: true });
    });
    await page.keyboard.press('Space');
    await expect.poll(() => media.evaluate((a: HTMLMediaElement) => !a.paused)).toBe(true);
    const from = (await media.evaluate((a: Noting) => a.playedFrom)) as number;
    expect(from).toBeGreaterThanOrEqual(expected[3]!.start / 1000 - 0.05);
    expect(from).toBeLessThan(expected[3]!.start / 1000 + 1.5);
    await page.keyboard.press('Space');
    await expect.poll(() => media.evaluate((a: HTMLMediaElement) => a.paused)).toBe(true);

    // Dark theme of the edited view.
    await page.emulateMedia({ colorScheme: 'dark' });
    await snap(page, 'subtitles-dark');
    await expectNoAxeViolations(page, 'subtitles dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // 6. The transcript view and search show the edited word.
    await page.getByRole('button', { name: 'Subtitles' }).click();
    await expect(page.getByTestId('transcript-body')).toContainText('Zanzibar');
    // The transcript view's own Export offers a Word document of the same edited model.
    await page.getByRole('button', { name: 'Export…' }).click();
    await page.getByRole('dialog').getByLabel('Format').selectOption('docx');
    const [docx] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Export' }).click()]);
    expect(docx.suggestedFilename()).toBe('Subtitled review 00001.docx');
    const docxPath = join(mkdtempSync(join(tmpdir(), 'verbatim-docx-')), 'review.docx');
    await docx.saveAs(docxPath);
    expect(execFileSync('unzip', ['-p', docxPath, 'word/document.xml']).toString('utf8')).toContain('Zanzibar');
    await page.getByRole('button', { name: 'Back to the library' }).click();
    await page.getByRole('searchbox', { name: 'Search every transcript' }).fill('Zanzibar');
    await expect(page.getByTestId('search-hit').first()).toContainText('Zanzibar');

    // History survives closing the view: reopen, and undo the split.
    await page.getByTestId('search-hit').first().click();
    await page.getByRole('button', { name: 'Subtitles' }).click();
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /Undo Split/);
  });
});

test.describe('subtitle waveform', () => {
  test('a click on a cue selects it; dragging its body moves it, its left edge retimes its start, Escape puts it back; an edit exported at once is in the file; the playing cue is marked, the list follows it, and Loop replays it', async ({
    page,
    host,
  }) => {
    const wav = fliteWav(mkdtempSync(join(tmpdir(), 'verbatim-wav-')), 'drag.wav', `${speech} ${speech} ${speech}`);
    const [id] = seedLibrary(host.dataDir, { count: 1, wordsPer: 50, titlePrefix: 'Dragged review', audioFile: wav });
    const lib = new Library(host.dataDir);
    const built = buildCuesWith(lib.transcripts.get(id!).words, builtInProfiles[0]!);
    lib.close();

    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Dragged review 00001' }).click();
    await page.getByRole('button', { name: 'Subtitles' }).click();
    await expect(page.getByTestId('cue-row').first()).toBeVisible();
    const box = (i: number) =>
      page
        .locator('[part~="region"]')
        .filter({ hasText: built[i]!.text.replace(/\n/g, ' ').slice(0, 12) })
        .first();
    await expect(box(2)).toBeVisible();
    const times = async (): Promise<[number, number]> => {
      const editor = page.getByRole('region', { name: /^Cue \d+$/ });
      return [parseCueTime(await editor.getByLabel('Start').inputValue())!, parseCueTime(await editor.getByLabel('End').inputValue())!];
    };
    const undo = page.getByRole('button', { name: 'Undo' });

    // A click selects the cue (and does not seek the wave under it).
    await box(2).click();
    await expect(page.getByRole('region', { name: 'Cue 3' })).toBeVisible();
    expect(await times()).toEqual([built[2]!.start, built[2]!.end]);
    await expect(undo).toBeDisabled();

    // Drag the body 40 px (0.4 s at 100 px/s) to the right: both ends move by that much, each snapped to a word edge within 80 ms.
    const drag = async (x: number, y: number, dx: number, finish: () => Promise<void> = () => page.mouse.up()) => {
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx / 2, y, { steps: 4 });
      await page.mouse.move(x + dx, y, { steps: 4 });
      await finish();
    };
    const body = (await box(2).boundingBox())!;
    await drag(body.x + body.width / 2, body.y + body.height / 2, 40);
    await expect(undo).toHaveAttribute('title', /Undo Retime/);
    const [start, end] = await times();
    expect(Math.abs(start - (built[2]!.start + 400))).toBeLessThanOrEqual(90);
    expect(Math.abs(end - (built[2]!.end + 400))).toBeLessThanOrEqual(90);

    // Its left edge 30 px to the left: the start moves back about 0.3 s, the end stays.
    const moved = (await box(2).boundingBox())!;
    const left = (await box(2).locator('[part~="region-handle-left"]').boundingBox())!;
    expect(left.x).toBeCloseTo(moved.x, 0);
    await drag(left.x + left.width / 2, left.y + left.height / 2, -30);
    await expect.poll(times).not.toEqual([start, end]);
    const [start2, end2] = await times();
    expect(end2).toBe(end);
    expect(Math.abs(start2 - (start - 300))).toBeLessThanOrEqual(90);

    // A drag given up with Escape changes nothing.
    const title = await undo.getAttribute('title');
    const now = (await box(2).boundingBox())!;
    await drag(now.x + now.width / 2, now.y + now.height / 2, 80, async () => {
      await page.keyboard.press('Escape');
      await page.mouse.up();
    });
    expect(await times()).toEqual([start2, end2]);
    await expect(undo).toHaveAttribute('title', title!);
    expect((await box(2).boundingBox())!.x).toBeCloseTo(now.x, 0);
    await snap(page, 'subtitles-dragged-light');

    // An edit, then Export straight away: the edit is in the file (the export waits for it to reach main).
    const text = page.getByRole('textbox', { name: 'Text of cue 3' });
    await text.fill('Exported at once.');
    await text.press('Control+Enter');
    await page.getByRole('button', { name: 'Export…' }).last().click();
    await page.getByLabel('Format').selectOption('srt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Export' }).click()]);
    let srt = '';
    for await (const chunk of await download.createReadStream()) srt += chunk.toString();
    const third = parseSubtitles(srt).doc.cues[2]!;
    expect([third.start, third.end, third.text]).toEqual([start2, end2, 'Exported at once.']);

    // Playing: the row of the cue under the playhead is marked, and with Loop the selected cue plays again from its start.
    const media = page.getByTestId('subtitle-media');
    const at = () => media.evaluate((a: HTMLMediaElement) => a.currentTime * 1000);
    const rows = page.getByTestId('cue-row');
    await page.getByRole('listbox').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await expect(rows.first()).toHaveClass(/cue--playing/);
    await page.keyboard.press('Space');
    await expect.poll(() => media.evaluate((a: HTMLMediaElement) => a.paused)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('region', { name: 'Cue 2' })).toBeVisible();
    await page.keyboard.press('Alt+l');
    await expect(page.getByRole('button', { name: 'Loop cue' })).toHaveAttribute('aria-pressed', 'true');
    // The playhead has followed the selection to cue 2 (so nothing moves it after the seek below).
    await expect.poll(async () => Math.abs((await at()) - built[1]!.start)).toBeLessThan(5);
    await media.evaluate((a: HTMLMediaElement, ms) => (a.currentTime = ms / 1000), built[1]!.end - 300);
    await expect(rows.nth(1)).toHaveClass(/cue--playing/);
    await page.getByRole('button', { name: 'Play (space)' }).click();
    // Past the end, back to the start: the time drops below where it was set.
    await expect.poll(at, { timeout: 5000 }).toBeLessThan(built[1]!.end - 400);
    expect(await at()).toBeGreaterThanOrEqual(built[1]!.start - 50);
    await page.getByRole('button', { name: 'Pause (space)' }).click();

    // The list follows the cue being played, down to one out of view.
    const list = page.getByRole('listbox');
    await list.evaluate((el) => (el.scrollTop = 0));
    // (The seeded words' times run past the audio: the last cue that starts inside it.)
    const duration = await media.evaluate((a: HTMLMediaElement) => a.duration * 1000);
    const n = built.findLastIndex((c) => c.start + 500 < duration);
    expect(n).toBeGreaterThanOrEqual(3);
    await media.evaluate((a: HTMLMediaElement, ms) => (a.currentTime = ms / 1000), built[n]!.start + 100);
    const lastRow = rows.filter({ has: page.locator('.cue__n', { hasText: new RegExp(`^${n + 1}$`) }) });
    await expect(lastRow).toHaveClass(/cue--playing/);
    await expect(lastRow).toBeInViewport();
    expect(await list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  });
});

test.describe('subtitle import', () => {
  test('imports an SRT with a broken cue onto a recording: the problem is named by line, the rest replaces the cues, undo brings them back', async ({
    page,
    host,
  }) => {
    seedLibrary(host.dataDir, { count: 1, wordsPer: 40, titlePrefix: 'Imported onto' });
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Imported onto 00001' }).click();
    await page.getByRole('button', { name: 'Subtitles' }).click();
    const rows = page.getByTestId('cue-row');
    await expect(rows.first()).toBeVisible();
    const before = await rows.count();
    const file = readFileSync(join(import.meta.dirname, '../fixtures/subtitles/malformed.srt'), 'utf8');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import…' }).click()]);
    await chooser.setFiles({ name: 'malformed.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(file) });
    const dialog = page.getByRole('dialog', { name: 'Import malformed.srt' });
    await expect(dialog).toContainText('2 cues (SRT)');
    await expect(dialog.getByRole('alert')).toContainText('Line 6:');
    await expect(dialog.getByRole('alert')).toContainText('Line 10:');
    await snap(page, 'subtitles-import-light');
    await expectNoAxeViolationsInBothThemes(page, 'import dialog');
    await dialog.getByRole('button', { name: 'Replace these cues' }).click();
    await expect(page.getByRole('listbox', { name: 'Cues (2)' })).toBeVisible();
    await expect(rows.first()).toContainText('Fine.');
    await page.getByRole('listbox').focus();
    await page.keyboard.press('Control+z');
    await expect(page.getByRole('listbox', { name: `Cues (${before})` })).toBeVisible();
  });

  test('imports an SRT as a new library item with its video uploaded beside it: the item plays the video with its cues and draws its waveform', async ({
    page,
    host,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-video-'));
    const video = join(dir, 'Harbour.webm');
    // Three seconds of a test picture with a tone: VP8 and Opus, which every Chromium plays.
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=15:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=3'],
      ...['-shortest', '-c:v', 'libvpx', '-b:v', '200k', '-c:a', 'libopus', video],
    ]);
    const srt = '1\n00:00:00,200 --> 00:00:01,400\nThe tide comes in\n\n2\n00:00:01,600 --> 00:00:02,800\nand the boats float again.\n';
    await page.goto(host.url);
    const [subs] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import subtitles' }).click()]);
    await subs.setFiles({ name: 'Harbour.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(srt) });
    const dialog = page.getByRole('dialog', { name: 'Import Harbour.srt' });
    await expect(dialog).toContainText('2 cues (SRT)');
    // From the library there is no open recording to replace the cues of.
    await expect(dialog.getByRole('button', { name: 'Replace these cues' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Add as a new item' })).toBeFocused();
    // A file that is not media is refused in the dialog, before anything is uploaded.
    const [bad] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose video or audio…' }).click()]);
    await bad.setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
    await expect(dialog.getByRole('alert')).toContainText('“notes.txt” cannot be used: Not audio or video');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose video or audio…' }).click()]);
    await chooser.setFiles(video);
    await expect(dialog.getByTestId('media-choice')).toContainText('Harbour.webm');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await snap(page, 'subtitles-import-item-light');
    await expectNoAxeViolations(page, 'import as item dialog light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await snap(page, 'subtitles-import-item-dark');
    await expectNoAxeViolations(page, 'import as item dialog dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Add as a new item' }).click();
    await expect(page.getByText('Added “Harbour.srt” to the library with 2 cues and Harbour.webm.')).toBeVisible();

    // The new item opens: its transcript is the cues' words, and it plays the video.
    await expect(page.getByRole('heading', { name: 'Harbour', level: 1 })).toBeVisible();
    await expect(page.getByTestId('transcript-body')).toContainText('The tide comes in');
    await page.getByRole('button', { name: 'Subtitles' }).click();
    const media = page.getByTestId('subtitle-media');
    await expect(media).toHaveJSProperty('tagName', 'VIDEO');
    await expect.poll(() => media.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && Math.round(v.duration))).toBe(3);
    await expect(page.getByTestId('cue-row')).toHaveCount(2);
    await expect(page.getByTestId('waveform').locator('div').first()).toBeVisible();
    // Playing inside the first cue draws it over the video.
    await media.evaluate((v: HTMLVideoElement) => (v.currentTime = 0.8));
    await expect(page.locator('.sub-media')).toContainText('The tide comes in');
    await snap(page, 'subtitles-imported-video-light');
  });
});

test.describe('subtitle dialogs', () => {
  /** Tab and Shift+Tab many times: focus never leaves the dialog. */
  async function expectFocusTrapped(page: Page, name: string): Promise<void> {
    const inside = () =>
      page.evaluate(
        (n) =>
          document.activeElement?.closest('dialog')?.getAttribute('aria-labelledby') !== null &&
          document.activeElement?.closest('dialog')?.querySelector('h2')?.textContent === n,
        name,
      );
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      expect(await inside(), `Tab ${i + 1} stays in “${name}”`).toBe(true);
    }
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside(), `Shift+Tab ${i + 1} stays in “${name}”`).toBe(true);
    }
  }

  test('Shift, Sync and Save profile: no axe violations in light and dark, focus trapped inside, and back on the opener when closed', async ({
    page,
    host,
  }) => {
    seedLibrary(host.dataDir, { count: 1, wordsPer: 60, titlePrefix: 'Dialogs' });
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open Dialogs 00001' }).click();
    await page.getByRole('button', { name: 'Subtitles' }).click();
    await expect(page.getByTestId('cue-row').first()).toBeVisible();

    for (const [opener, title, shot] of [
      ['Shift…', 'Shift times', 'subtitles-shift'],
      ['Sync…', 'Sync by two points', 'subtitles-sync'],
      ['Save profile…', 'Save a rules profile', 'subtitles-profile'],
    ] as const) {
      const button = page.getByRole('button', { name: opener });
      await button.click();
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog).toBeVisible();
      // Focus starts in the dialog, on the field to fill.
      await expect(dialog.getByRole('textbox').or(dialog.getByRole('spinbutton')).first()).toBeVisible();
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      await expectNoAxeViolationsInBothThemes(page, title, shot);
      await expectFocusTrapped(page, title);
      // Escape closes it and focus is back on the button that opened it.
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(button).toBeFocused();
      // So does Cancel.
      await button.press('Enter');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(button).toBeFocused();
    }

    // A value out of range is named beside its field, in words; a good profile is saved and chosen.
    await page.getByRole('button', { name: 'Save profile…' }).click();
    const profile = page.getByRole('dialog', { name: 'Save a rules profile' });
    await profile.getByLabel('Name').fill('Broadcast');
    await profile.getByLabel('Lines per cue').fill('9');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect(profile.getByRole('alert')).toHaveText('Lines per cue must be between 1 and 4.');
    await expect(profile.getByLabel('Lines per cue')).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolationsInBothThemes(page, 'profile dialog with an error,');
    await profile.getByLabel('Lines per cue').fill('3');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect(profile).toHaveCount(0);
    await expect(page.locator('.subtitles__profile select')).toHaveValue('user-broadcast');
    await expect(page.getByRole('button', { name: 'Save profile…' })).toBeFocused();

    // Shift: the selected cue by a typed amount, then every cue; what is not an amount is named, and nothing moves.
    const startOf = async () =>
      parseCueTime(
        await page
          .getByRole('region', { name: /^Cue \d+$/ })
          .getByLabel('Start')
          .inputValue(),
      )!;
    await page.getByTestId('cue-row').nth(2).click();
    const before = await startOf();
    const shiftButton = page.getByRole('button', { name: 'Shift…' });
    await shiftButton.click();
    const shift = page.getByRole('dialog', { name: 'Shift times' });
    await expect(shift.getByLabel('The selected cue')).toBeChecked();
    await shift.getByLabel('By').fill('soon');
    await shift.getByRole('button', { name: 'Shift' }).click();
    await expect(shift.getByRole('alert')).toContainText('Type how far to move them');
    await expectNoAxeViolationsInBothThemes(page, 'shift dialog with an error,');
    await shift.getByLabel('By').fill('+1.5');
    await shift.getByLabel('By').press('Enter');
    await expect(shift).toHaveCount(0);
    await expect(shiftButton).toBeFocused();
    await expect.poll(startOf).toBe(before + 1500);
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /Undo Shift by milliseconds/);
    const firstStart = Number(
      await page
        .getByTestId('cue-row')
        .first()
        .locator('.cue__time')
        .textContent()
        .then((t) => parseCueTime(t!.split(' → ')[0]!)),
    );
    await shiftButton.click();
    await shift.getByLabel(/^All \d+ cues$/).check();
    await shift.getByLabel('By').fill('-80 ms');
    await shift.getByRole('button', { name: 'Shift' }).click();
    await expect(shift).toHaveCount(0);
    await expect(page.getByTestId('cue-row').first().locator('.cue__time')).toContainText(cueTime(Math.max(0, firstStart - 80)));
  });
});
