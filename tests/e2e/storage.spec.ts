/**
 * Settings → Storage on host mode: the library's size, and a retention rule that removes old recorded
 * audio (the transcripts stay) with an Undo; axe in light and dark.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';
import { seedLibrary } from './seed';

test.describe('storage', () => {
  test('shows the library’s size, removes audio older than 30 days with an undo, and keeps the transcripts', async ({ page, host }) => {
    const audio = join(host.dataDir, '..', 'clip.wav');
    writeFileSync(audio, Buffer.alloc(64 * 1024, 7));
    // Made in January 2026: older than 30 days.
    seedLibrary(host.dataDir, { count: 4, wordsPer: 40, titlePrefix: 'Weekly sync', audioFile: audio });
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const section = page.getByTestId('storage-section');
    await expect(section.getByTestId('storage-usage')).toContainText('256 KB of audio in 4 files');
    await expect(section.getByRole('radio', { name: /For ever/ })).toBeChecked();

    await section.getByRole('radio', { name: /For a number of days/ }).check();
    await expect(section.getByTestId('storage-outcome')).toContainText('Removed the audio of 4 recordings (256 KB). Their transcripts stay.');
    await expect(section.getByTestId('storage-usage')).toContainText('0 bytes of audio in 0 files');
    await expect(section.getByLabel('Days to keep audio')).toHaveValue('30');
    await section.scrollIntoViewIfNeeded();
    await expectNoAxeViolationsInBothThemes(page, 'settings storage, after a removal', 'settings-storage');

    // The transcripts stay, without audio to play.
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await expect(page.getByTestId('library-row')).toHaveCount(4);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await section.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');
    await expect(section.getByTestId('storage-usage')).toContainText('256 KB of audio in 4 files');
    await expect(section.getByTestId('storage-outcome')).toHaveCount(0);

    // A number of days that is not one is refused in words, and nothing is saved.
    await section.getByLabel('Days to keep audio').fill('0');
    await expect(section.getByText('Enter a whole number of days from 1 to 3650.')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Apply' })).toBeDisabled();
  });
});
