/**
 * The notes folder in host mode started with --folder: a folder outside it is refused with what to
 * do; one inside it gets the library's finished transcript as a Markdown note; a speaker rename in
 * the transcript rewrites the note; a note edited by hand is kept as it is and Verbatim's update goes
 * beside it, which Settings says. Axe in light and dark.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, launchHost, stopHost, test } from './host';
import { seedLibrary } from './seed';

test('notes folder: a transcript appears as a note, a speaker rename rewrites it, a hand-edited note is kept', async ({ page }) => {
  test.setTimeout(240_000);
  const root = mkdtempSync(join(tmpdir(), 'verbatim-notes-e2e-'));
  const vault = join(root, 'vault');
  const notes = join(vault, 'Meetings');
  const outside = join(root, 'outside');
  mkdirSync(notes, { recursive: true });
  mkdirSync(outside);
  seedLibrary(join(root, 'data'), { count: 1, wordsPer: 200, titlePrefix: 'Planning', speakers: ['A', 'B'] });
  const note = join(notes, '2026-01-05 Planning 00001.md');
  const copy = join(notes, '2026-01-05 Planning 00001 (update from Verbatim).md');
  const { url, child } = await launchHost(join(root, 'data'), {}, ['--folder', vault]);
  try {
    await page.goto(url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const section = page.getByTestId('notes-section');
    await section.scrollIntoViewIfNeeded();
    await section.getByRole('textbox', { name: 'Folder' }).fill(outside);
    await section.getByRole('button', { name: 'Keep notes here' }).click();
    await expect(section.getByRole('alert')).toContainText('--folder');

    await section.getByRole('textbox', { name: 'Folder' }).fill(notes);
    await section.getByRole('button', { name: 'Keep notes here' }).click();
    await expect(section.getByTestId('notes-folder')).toHaveText(notes);
    await expect(section).toContainText('1 notes');
    await expect.poll(() => readdirSync(notes)).toEqual(['2026-01-05 Planning 00001.md']);
    expect(readFileSync(note, 'utf8')).toMatch(/^---\ntitle: Planning 00001\n/);
    await expectNoAxeViolationsInBothThemes(page, 'settings notes folder', 'notes-settings');
    await page.emulateMedia({ colorScheme: 'light' });

    // A speaker named in the transcript: the note follows.
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await page
      .getByTestId('library-row')
      .filter({ hasText: 'Planning 00001' })
      .getByRole('button', { name: /^Open Planning 00001/ })
      .click();
    const body = page.getByTestId('transcript-body');
    await body.getByRole('button', { name: 'Speaker A: rename' }).first().click();
    await page.getByRole('textbox', { name: 'Name for speaker A' }).fill('Dana');
    await page.keyboard.press('Enter');
    await expect(body.getByRole('button', { name: 'Dana: rename' }).first()).toBeVisible();
    await expect.poll(() => readFileSync(note, 'utf8'), { timeout: 60_000 }).toContain('**Dana:**');

    // Edited by hand: kept; the next change goes beside it.
    appendFileSync(note, '\nMy own notes from the meeting.\n');
    const edited = readFileSync(note, 'utf8');
    await body.getByRole('button', { name: 'Speaker B: rename' }).first().click();
    await page.getByRole('textbox', { name: 'Name for speaker B' }).fill('Lee');
    await page.keyboard.press('Enter');
    await expect.poll(() => existsSync(copy), { timeout: 60_000 }).toBe(true);
    expect(readFileSync(copy, 'utf8')).toContain('**Lee:**');
    expect(readFileSync(note, 'utf8')).toBe(edited);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const kept = page.getByTestId('notes-kept');
    await kept.scrollIntoViewIfNeeded();
    await expect(kept).toContainText('You edited “2026-01-05 Planning 00001.md”, so Verbatim left it as it is');
    await expectNoAxeViolationsInBothThemes(page, 'settings notes folder with a kept note', 'notes-kept');
  } finally {
    await stopHost(child);
    rmSync(root, { recursive: true, force: true });
  }
});
