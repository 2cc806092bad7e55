/**
 * The subtitle editor at the contract's limit in host mode (issue 26): a
 * 200,000-cue SRT imported from the library (its ~7 MB message read on the
 * library's worker), opened (its document written as JSON there), one cue
 * edited, and the edit still there after a reload.
 */
import { Library } from '../../src/main/services/library/library';
import { srtOf } from '../support/srt';
import { expect, test } from './host';

const CUES = 200_000;

test('a 200,000-cue SRT: imported as an item, opened in Subtitles, a cue edited and kept after a reload', async ({ page, host }) => {
  test.setTimeout(300_000);
  await page.goto(host.url);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import subtitles' }).click()]);
  await chooser.setFiles({ name: 'Marathon.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(srtOf(CUES, (i) => `line ${i}`)) });
  const dialog = page.getByRole('dialog', { name: 'Import Marathon.srt' });
  await expect(dialog).toContainText(`${CUES} cues (SRT)`, { timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Add as a new item' }).click();
  await expect(page.getByText(`Added “Marathon.srt” to the library with ${CUES} cues.`)).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('heading', { name: 'Marathon', level: 1 })).toBeVisible({ timeout: 60_000 });

  await page.getByRole('button', { name: 'Subtitles' }).click();
  await expect(page.getByRole('listbox', { name: `Cues (${CUES})` })).toBeVisible({ timeout: 120_000 });
  const rows = page.getByTestId('cue-row');
  await expect(rows.first()).toContainText('line 0');
  await rows.first().click();
  const text = page.getByRole('textbox', { name: 'Text of cue 1' });
  await text.fill('Starting gun');
  await text.press('Control+Enter');
  await expect(rows.first()).toContainText('Starting gun');

  // Stored: the library (read beside host mode) has the edit and every cue.
  const lib = new Library(host.dataDir);
  try {
    const id = lib.recordings.list({ limit: 1, title: 'Marathon' }).items[0]!.id;
    await expect.poll(() => lib.subtitles.cues(id).cues[0]?.text, { timeout: 60_000 }).toBe('Starting gun');
    expect(lib.subtitles.cues(id).cues).toHaveLength(CUES);
  } finally {
    lib.close();
  }

  await page.reload();
  await page.getByRole('button', { name: 'Open Marathon' }).click();
  await page.getByRole('button', { name: 'Subtitles' }).click();
  await expect(page.getByRole('listbox', { name: `Cues (${CUES})` })).toBeVisible({ timeout: 120_000 });
  await expect(rows.first()).toContainText('Starting gun');
  await expect(rows.nth(1)).toContainText('line 1');
});
