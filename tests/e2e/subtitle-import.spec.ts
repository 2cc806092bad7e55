/**
 * "Import subtitles…" given files that are not subtitles (issue 24): a WAV is
 * refused in one sentence naming what it is and offers to transcribe it; a
 * text file with no cue says so in one sentence; neither adds anything to the
 * library. A Windows-1252 SRT then imports with its accents right and the
 * summary naming the encoding, and is the one item in the library. Axe in
 * both themes on the refusal.
 */
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';

/** A RIFF/WAVE header and a quarter second of silence. */
function wav(): Buffer {
  const data = Buffer.alloc(8000);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16000, 24);
  h.writeUInt32LE(32000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

test('refuses a WAV and a text file with no cue in one sentence each, adding nothing; a Windows-1252 SRT imports with its accents', async ({ page, host }) => {
  await page.goto(host.url);
  await expect(page.getByTestId('connection')).toHaveText('Connected');
  await expect(page.getByRole('heading', { name: 'Your library', level: 1 })).toBeVisible();
  const pick = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import subtitles' }).click()]);
    await chooser.setFiles(file);
  };

  await pick({ name: 'a.wav', mimeType: 'audio/wav', buffer: wav() });
  const wavDialog = page.getByRole('dialog', { name: 'Import a.wav' });
  await expect(wavDialog.getByTestId('import-refusal')).toHaveText('a.wav is audio, not subtitles.');
  await expect(wavDialog.getByRole('button', { name: 'Transcribe a.wav' })).toBeFocused();
  await expect(wavDialog.getByRole('button', { name: 'Add as a new item' })).toHaveCount(0);
  await expectNoAxeViolationsInBothThemes(page, 'subtitle import refusal', 'subtitles-import-refusal');
  await wavDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(wavDialog).toHaveCount(0);

  await pick({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Meeting notes, 12 March\n\nNothing in this file is timed.\n') });
  const txtDialog = page.getByRole('dialog', { name: 'Import notes.txt' });
  await expect(txtDialog.getByTestId('import-refusal')).toHaveText(
    'notes.txt has no subtitle cues in it: no line like “00:00:01,000 --> 00:00:02,500” was found.',
  );
  await expect(txtDialog.getByRole('button', { name: /Transcribe|Add as a new item/ })).toHaveCount(0);
  await expect(txtDialog.getByRole('button', { name: 'OK' })).toBeFocused();
  await txtDialog.getByRole('button', { name: 'OK' }).click();
  await expect(txtDialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Your library', level: 1 })).toBeVisible();

  // A Windows-1252 file: "Café" and "naïve" as single bytes 0xE9 and 0xEF.
  const srt = Buffer.concat([
    Buffer.from('1\n00:00:00,500 --> 00:00:02,000\nCaf', 'latin1'),
    Buffer.from([0xe9]),
    Buffer.from(' au lait, na', 'latin1'),
    Buffer.from([0xef]),
    Buffer.from('ve fa', 'latin1'),
    Buffer.from([0xe7]),
    Buffer.from('ade.\n', 'latin1'),
  ]);
  await pick({ name: 'Menu.srt', mimeType: 'application/x-subrip', buffer: srt });
  const srtDialog = page.getByRole('dialog', { name: 'Import Menu.srt' });
  await expect(srtDialog).toContainText('1 cue (SRT)');
  await expect(srtDialog.getByTestId('import-summary')).toContainText('Read as Windows-1252 text (it is not valid UTF-8).');
  await srtDialog.getByRole('button', { name: 'Add as a new item' }).click();
  await expect(page.getByTestId('transcript-body')).toContainText('Café au lait, naïve façade.');
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  // The refused files added nothing: the library holds only this item.
  await expect(page.getByTestId('library-row')).toHaveCount(1);
  await expect(page.getByTestId('library-row')).toContainText('Menu');
});
