/**
 * Settings → Backups (issue 26, item 4; issue 40: a backup made from Settings holds remembered voices only when
 * the box is ticked, checked in the file's bytes): a backup folder imported
 * from the keyboard with its outcome and what was left out (an audio file
 * that is a link), a large one canceled part-way from its progress bar
 * (nothing kept), axe light and dark, and screenshots.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import { addCompleted } from '../support/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

const now = '2026-01-01T00:00:00.000Z';
const rid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const tid = (i: number) => `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function backup(dir: string, n: number, linkAudio = false): string {
  mkdirSync(join(dir, 'audio'), { recursive: true });
  const recordings = Array.from({ length: n }, (_, i) => ({
    id: rid(i),
    title: `Restored ${i}`,
    source: 'r.wav',
    source_kind: 'file',
    created_at: now,
    updated_at: now,
    ...(linkAudio && i === 0 ? { audio_file: `${rid(0)}.wav` } : {}),
  }));
  const transcripts = Array.from({ length: n }, (_, i) => ({
    id: tid(i),
    recording_id: rid(i),
    region: 'local',
    status: 'completed',
    text: 'hello',
    created_at: now,
    sentences: '[]',
    paragraphs: '[]',
  }));
  writeFileSync(join(dir, 'library.json'), JSON.stringify({ format: 'verbatim-library', version: 1, tables: { recordings, transcripts } }));
  if (linkAudio) symlinkSync('/etc/hostname', join(dir, 'audio', `${rid(0)}.wav`));
  return dir;
}

test.describe('restore a backup', () => {
  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-backup-'));
  });
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('imports from the keyboard, says what came in and what was left out; axe light and dark', async ({ page, host }) => {
    const folder = backup(join(dir, 'small'), 3, true);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const field = page.getByLabel('Backup folder');
    await field.fill(folder);
    await field.press('Enter');
    const outcome = page.getByTestId('backup-outcome');
    await expect(outcome).toContainText('Imported 3 items.');
    await expect(outcome).toContainText(/was not imported: it is a link/);
    // Backups leave remembered voices out unless the box is ticked; ticked from the keyboard, it is saved.
    const voices = page.getByRole('checkbox', { name: 'Include remembered voices (voiceprints) in backups' });
    await expect(voices).not.toBeChecked();
    await expect(voices).toHaveAccessibleDescription(/Voiceprints identify people by their voice\. They stay on this computer unless you include them here/);
    await voices.focus();
    await page.keyboard.press('Space');
    await expect(voices).toBeChecked();
    await outcome.scrollIntoViewIfNeeded();
    await expectNoAxeViolationsInBothThemes(page, 'settings backup restored', 'backup-restored');
    await page.reload();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('checkbox', { name: 'Include remembered voices (voiceprints) in backups' })).toBeChecked();
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await expect(page.getByText('Restored 2')).toBeVisible();
  });

  test('makes a backup from the keyboard, with remembered voices only when the box is ticked; axe light and dark', async ({ page, host }) => {
    const lib = new Library(host.dataDir);
    const words = 'the budget is fine'.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: 0.9, speaker: 'A' }));
    const { recordingId } = addCompleted(lib, 'Weekly', words, { region: 'us', sizeBytes: 1000 });
    const print = Float32Array.of(0.125, -0.75, 0.5);
    lib.voices.people.remember(recordingId, 'Dana', 'test-model', [{ vector: print, ms: 1500 }], 'A');
    lib.close();
    const printBytes = Buffer.from(print.buffer).toString('base64');
    const manifest = (name: string) => readFileSync(join(dir, name, 'library.json'), 'utf8');

    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const target = page.getByLabel('Folder for the backup');
    const made = page.getByTestId('backup-made');
    await target.fill(join(dir, 'plain'));
    await target.press('Enter');
    await expect(made).toHaveText(`Backed up 1 item and 0 audio files into ${join(dir, 'plain')}. Remembered voices were left out.`);
    expect(manifest('plain')).toContain('the budget is fine');
    expect(manifest('plain')).not.toContain(printBytes);
    expect(manifest('plain')).not.toContain('"voice_prints"');

    const voices = page.getByRole('checkbox', { name: 'Include remembered voices (voiceprints) in backups' });
    await voices.focus();
    await page.keyboard.press('Space');
    await expect(voices).toBeChecked();
    await target.fill(join(dir, 'with-voices'));
    await target.press('Enter');
    await expect(made).toHaveText(`Backed up 1 item and 0 audio files into ${join(dir, 'with-voices')}. Remembered voices are included.`);
    expect(manifest('with-voices')).toContain(printBytes);
    await made.scrollIntoViewIfNeeded();
    await expectNoAxeViolationsInBothThemes(page, 'settings backup made', 'backup-made');

    // A folder that is not empty is refused, in words.
    await target.press('Enter');
    await expect(made).toContainText('is not empty. Choose an empty or new folder for the backup.');
  });

  test('cancels a large import from its progress bar: nothing from it is kept', async ({ page, host }) => {
    const folder = backup(join(dir, 'large'), 40_000);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Backup folder').fill(folder);
    await page.getByRole('button', { name: 'Import backup' }).click();
    await expect(page.getByRole('progressbar', { name: 'Backup import' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel import' }).click();
    await expect(page.getByTestId('backup-outcome')).toContainText('Import canceled. Nothing from this backup was kept.');
    await expect(page.getByRole('button', { name: 'Import backup' })).toBeEnabled();
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await expect(page.getByText('Restored 1', { exact: true })).toHaveCount(0);
  });

  test('says why a folder is not a backup', async ({ page, host }) => {
    mkdirSync(join(dir, 'empty'));
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Backup folder').fill(join(dir, 'empty'));
    await page.getByRole('button', { name: 'Import backup' }).click();
    await expect(page.getByTestId('backup-outcome')).toContainText('library.json is missing');
  });
});
