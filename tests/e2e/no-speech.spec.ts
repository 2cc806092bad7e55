/**
 * A recording with no speech in it (a tone) on host mode, through the real
 * local engine: the job completes and the transcript says that no speech was
 * found and what the user can do, not that the recording may be too short.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoAxeViolations } from './axe';
import { dropFileFrom, dropFiles } from './drop';
import { expect, test } from './host';

test('a tone comes back as a recording in which no speech was found', async ({ page, host }) => {
  const wav = join(mkdtempSync(join(tmpdir(), 'verbatim-e2e-tone-')), 'tone.wav');
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', wav, 'synth', '4', 'sine', '440']);
  await page.goto(host.url);
  await expect(page.getByTestId('connection')).toHaveText('Connected');

  await dropFiles(page, [dropFileFrom(wav)]);
  const row = page.getByTestId('job-row').filter({ hasText: 'tone.wav' });
  await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
  await row.getByRole('button', { name: 'Open' }).click();

  const note = page.getByTestId('no-speech');
  await expect(note).toHaveText(/^No speech was found in this recording\. If someone does speak in it, check that the sound is not muted/);
  await expect(page.getByTestId('transcript-body')).not.toContainText(/too short/);
  await expectNoAxeViolations(page, 'transcript with no speech');
});
