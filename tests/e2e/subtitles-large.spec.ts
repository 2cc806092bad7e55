/**
 * The subtitle editor at the contract's limit in host mode (issue 26): a
 * 200,000-cue SRT imported from the library (its ~7 MB uploaded and read on
 * the library's worker; no bridge request over 1 KB), opened (its document
 * written as JSON there), one cue edited, the edit still there after a
 * reload, and then every cue replaced from another 200,000-cue file.
 */
import { Library } from '../../src/main/services/library/library';
import { srtOf } from '../support/srt';
import { expect, test } from './host';

const CUES = 200_000;

test('a 200,000-cue SRT: imported as an item, opened in Subtitles, a cue edited and kept after a reload', async ({ page, host }) => {
  test.setTimeout(420_000);
  // Every subtitles request the page sends over the bridge: a file's text goes by /upload, never in one.
  const sent: number[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : '';
      if (text.includes('"subtitles.')) sent.push(Buffer.byteLength(text));
    }),
  );
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

  // Every cue replaced from a file of 200,000 (uploaded, read on the worker): both sides agree, so nothing reloads, and it is stored.
  const [onto] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import…' }).click()]);
  await onto.setFiles({ name: 'Relay.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(srtOf(CUES, (i) => `relay ${i}`)) });
  const ontoDialog = page.getByRole('dialog', { name: 'Import Relay.srt' });
  await expect(ontoDialog).toContainText(`${CUES} cues (SRT)`, { timeout: 60_000 });
  await ontoDialog.getByRole('button', { name: 'Replace these cues' }).click();
  await expect(rows.first()).toContainText('relay 0', { timeout: 60_000 });
  const again = new Library(host.dataDir);
  try {
    const id = again.recordings.list({ limit: 1, title: 'Marathon' }).items[0]!.id;
    await expect.poll(() => again.subtitles.cues(id).cues[CUES - 1]?.text, { timeout: 120_000 }).toBe(`relay ${CUES - 1}`);
    expect(again.subtitles.open(id).undo.at(-1)).toBe('Import Relay.srt');
  } finally {
    again.close();
  }
  await expect(page.getByRole('status').filter({ hasText: 'reloaded' })).toHaveCount(0);
  expect(sent.length).toBeGreaterThan(3);
  expect(Math.max(...sent)).toBeLessThan(1024);
});
