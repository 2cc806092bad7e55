/**
 * The main job end to end on host mode with the real local engine: drop a
 * spoken WAV, watch it move, read it, seek by clicking a word, find it again
 * from the library search; a bad batch fails file by file; a restart mid-job
 * resumes it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { dropFileFrom, dropFiles } from './drop';
import { expect, test } from './host';
import { fliteWav } from './seed';
import { snap } from './snap';

const SPOKEN = 'Hello world. This is a test of the transcription system. The weather today is sunny and warm.';

function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'verbatim-e2e-files-'));
}

async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('connection')).toHaveText('Connected');
}

test.describe('library: the main job', () => {
  test('a dropped WAV goes through the queue into a transcript that plays and is found by search', async ({ page, host }) => {
    const wav = fliteWav(workDir(), 'hello-world.wav', SPOKEN);
    await openApp(page, host.url);
    await expect(page.getByTestId('engine-note')).toContainText('local engine');
    await snap(page, 'library-empty-light');

    await dropFiles(page, [dropFileFrom(wav)]);
    const row = page.getByTestId('job-row').filter({ hasText: 'hello-world.wav' });
    await expect(row).toBeVisible();
    // Something moves in every state until it is done.
    await expect(row.getByRole('progressbar')).toBeVisible();
    // Its length, read from the file's header, shows before the service has heard it.
    await expect(row.getByTitle('Length')).toHaveText(/^0:(0[5-9]|1\d)$/);
    await snap(page, 'queue-in-progress-light');
    await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    await snap(page, 'queue-completed-light');

    await row.getByRole('button', { name: 'Open' }).click();
    const body = page.getByTestId('transcript-body');
    await expect(body.locator('.w').first()).toBeVisible();
    const text = ((await body.textContent()) ?? '').toLowerCase();
    const heard = ['hello', 'world', 'test', 'transcription', 'system', 'weather', 'today', 'sunny', 'warm'].filter((w) => text.includes(w));
    expect(heard.length, `transcript was: ${text}`).toBeGreaterThanOrEqual(3);

    // Click a later word: the player seeks there.
    const audio = page.getByTestId('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThan(0);
    const words = body.locator('.w');
    const n = await words.count();
    const target = words.nth(Math.floor(n * 0.6));
    await target.click();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(1);
    await expect(target).toHaveClass(/w--active/);
    await page.keyboard.press('Space');
    await snap(page, 'transcript-playing-engine-light');
    await page.keyboard.press('k');

    // Library search finds a spoken word and opens the transcript at its time.
    const needle = heard[heard.length - 1] as string;
    await page.getByRole('button', { name: 'Back to the library' }).click();
    // A few seconds after it finished, the job folds into one line: the library below already lists it.
    await expect(page.getByTestId('queue-done')).toContainText('hello-world.wav is ready');
    await expect(page.getByTestId('job-row')).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Search every transcript' }).fill(needle);
    const hit = page.getByTestId('search-hit').first();
    await expect(hit).toBeVisible();
    await expect(hit.locator('mark').first()).toHaveText(new RegExp(needle, 'i'));
    await snap(page, 'search-hits-engine-light');
    await hit.click();
    await expect(page.getByTestId('transcript-body').locator('.w--active')).toBeVisible();
    const activeText = ((await page.getByTestId('transcript-body').locator('.w--active').textContent()) ?? '').toLowerCase();
    const sentence = ((await page.getByTestId('transcript-body').textContent()) ?? '').toLowerCase();
    expect(sentence).toContain(needle);
    expect(activeText.length).toBeGreaterThan(0);
  });

  test('a batch with a text file and an empty file says why each was skipped and transcribes the rest', async ({ page, host }) => {
    const dir = workDir();
    const wav = fliteWav(dir, 'good.wav', 'Testing one two three. The batch goes on.');
    writeFileSync(join(dir, 'notes.txt'), 'not audio at all');
    writeFileSync(join(dir, 'empty.wav'), '');
    writeFileSync(join(dir, 'broken.mp3'), Buffer.from('ID3 this is not really an mp3 file, only text pretending to be one'.repeat(40)));
    await openApp(page, host.url);
    await page.getByTestId('file-picker').setInputFiles([join(dir, 'notes.txt'), join(dir, 'empty.wav'), wav, join(dir, 'broken.mp3')]);

    const skipped = page.getByTestId('skipped-row');
    await expect(skipped).toHaveCount(2);
    await expect(skipped.filter({ hasText: 'notes.txt' })).toContainText('Not audio or video');
    await expect(skipped.filter({ hasText: 'empty.wav' })).toContainText('empty (0 bytes)');

    const good = page.getByTestId('job-row').filter({ hasText: 'good.wav' });
    const broken = page.getByTestId('job-row').filter({ hasText: 'broken.mp3' });
    await expect(good).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    await expect(broken).toHaveAttribute('data-status', 'error', { timeout: 120_000 });
    // The failed file's row says what happened and offers the fix.
    await expect(broken.getByRole('alert')).not.toBeEmpty();
    await expect(broken.getByRole('button', { name: /Retry|Pick another file/ })).toBeVisible();
    await snap(page, 'queue-error-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await snap(page, 'queue-error-dark');
  });

  test('a job survives a restart of host mode and completes', async ({ page, host }) => {
    const long = Array.from({ length: 6 }, () => SPOKEN).join(' ');
    const wav = fliteWav(workDir(), 'long-talk.wav', long);
    await openApp(page, host.url);
    await page.getByTestId('file-picker').setInputFiles(wav);
    const row = page.getByTestId('job-row').filter({ hasText: 'long-talk.wav' });
    await expect(row).toHaveAttribute('data-status', /uploading|submitted|processing/, { timeout: 60_000 });

    await host.restart();
    await openApp(page, host.url);
    const after = page.getByTestId('job-row').filter({ hasText: 'long-talk.wav' });
    await expect(after).toBeVisible();
    await expect(after).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
    await expect(page.getByTestId('job-row')).toHaveCount(1); // resumed, not submitted twice
    await after.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('transcript-body').locator('.w').first()).toBeVisible();
  });
});
