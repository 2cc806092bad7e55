/**
 * Speakers offline: a two-voice file transcribed by the local engine, then "Add speakers" (no file chosen
 * again) with the tiny diarization models in the app's models folder, becomes a transcript with two
 * renamable speakers, and the exported SRT names them. The voices are two flite voices, each turn marked
 * by a quiet tone the tiny models hear as the voice (tests/fixtures/models/speakers.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installTinySpeakerModels, MARKS, markedConversation, TWO_VOICES, wavBytes } from '../fixtures/models/speakers';
import { dropFileFrom, dropFiles } from './drop';
import { expect, test } from './host';
import { snap } from './snap';

test.describe('speakers on the local engine', () => {
  test('a two-voice file gets two renamable speakers without choosing it again, and the SRT names them', async ({ page, host }) => {
    installTinySpeakerModels(join(host.dataDir, 'models'), { segmentation: { hz: MARKS }, embedding: { hz: MARKS } });
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-speakers-'));
    const wav = join(dir, 'two-voices.wav');
    writeFileSync(wav, wavBytes(markedConversation(join(dir, 'talk'), TWO_VOICES).pcm));

    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText('Connected');
    await dropFiles(page, [dropFileFrom(wav)]);
    const row = page.getByTestId('job-row').filter({ hasText: 'two-voices.wav' });
    await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    await row.getByRole('button', { name: 'Open' }).click();
    const body = page.getByTestId('transcript-body');
    await expect(body.locator('.w').first()).toBeVisible();
    await expect(body.getByRole('button', { name: /: rename$/ })).toHaveCount(0);

    await snap(page, 'transcript-add-speakers-light');
    await page.getByRole('button', { name: 'Add speakers' }).click();
    await expect(body.getByRole('button', { name: 'Speaker A: rename' }).first()).toBeVisible({ timeout: 120_000 });
    await expect(body.getByRole('button', { name: 'Speaker B: rename' }).first()).toBeVisible();
    // The turns alternate: A, B, A, B.
    const names = await body.getByRole('button', { name: /^Speaker [AB]: rename$/ }).evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
    expect(names.filter((n, i) => i === 0 || n !== names[i - 1])).toEqual(['Speaker A', 'Speaker B', 'Speaker A', 'Speaker B']);
    await expect(page.getByRole('button', { name: 'Add speakers' })).toHaveCount(0);

    await body.getByRole('button', { name: 'Speaker A: rename' }).first().click();
    await page.getByRole('textbox', { name: 'Name for speaker A' }).fill('Dana');
    await page.keyboard.press('Enter');
    await body.getByRole('button', { name: 'Speaker B: rename' }).first().click();
    await page.getByRole('textbox', { name: 'Name for speaker B' }).fill('Lee');
    await page.keyboard.press('Enter');
    await expect(body.getByRole('button', { name: 'Dana: rename' })).toHaveCount(2);
    await expect(body.getByRole('button', { name: 'Lee: rename' })).toHaveCount(2);
    await snap(page, 'transcript-local-speakers-light');

    await page.getByRole('button', { name: 'Export…' }).click();
    await page.getByLabel('Format').selectOption('srt');
    await expect(page.getByLabel('Format')).toHaveValue('srt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Export' }).click()]);
    let srt = '';
    for await (const chunk of await download.createReadStream()) srt += (chunk as Buffer).toString();
    expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d\d\d --> /);
    const named = [...srt.matchAll(/^(Dana|Lee): /gm)].map((m) => m[1]);
    expect(named).toEqual(['Dana', 'Lee', 'Dana', 'Lee']);
  });
});
