/**
 * Sessions that end themselves, end to end in host mode: Chromium's fake
 * microphone plays a short flite sentence and then three minutes of silence;
 * with "Stop after minutes without speech" at 1 and host mode started with a
 * minute of 15 s (VERBATIM_TEST_SILENCE_MINUTE_MS, set only by this test's
 * host), the session asks "Still recording?" (axe, light and dark), "Keep
 * recording" keeps it running, and when the question comes again and is left
 * unanswered the session stops itself and is saved whole in the library.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoAxeViolations } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';
import { snap } from './snap';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-silence-e2e-'));
const wav = join(dir, 'speech-then-silence.wav');
// Speech, then silence far longer than the test (Chromium loops the file: the sentence must not come back).
execFileSync('flite', ['-voice', 'slt', '-t', 'Good morning everyone. The budget meeting starts at nine.', '-o', join(dir, 'raw.wav')]);
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'raw.wav'), '-af', 'apad=pad_dur=180', '-ar', '48000', '-ac', '1', wav]);

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
  // "Minutes" of 15 s: the question comes 15 s after the last words, and the stop 15 s after the question.
  hostEnv: { VERBATIM_TEST_SILENCE_MINUTE_MS: '15000' },
});

test('a silent session asks "Still recording?", keeps running when kept, then stops itself and is saved whole', async ({ page, host }) => {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Live captions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
  await page.getByText('Caption settings').click();
  for (const name of ['Echo cancellation', 'Noise suppression', 'Automatic gain']) {
    const sw = page.getByRole('switch', { name });
    if (await sw.isChecked()) await sw.click({ force: true });
    await expect(sw).not.toBeChecked();
  }
  const minutes = page.getByLabel('Stop after minutes without speech');
  await minutes.fill('1');
  await minutes.blur();
  await expect(minutes).toHaveValue('1');

  await page.getByTestId('captions-start').click();
  await expect(page.getByTestId('source-mic')).toContainText('Live', { timeout: 90_000 });
  const finalLine = page.getByTestId('captions-panel').locator('[data-testid="caption-line"][data-final="true"]').first();
  await expect(finalLine).toBeVisible({ timeout: 60_000 });
  const heard = ((await finalLine.textContent()) ?? '').toLowerCase();
  expect(heard).toMatch(/morning|budget|meeting|nine|everyone/);

  // Silence since: the question (with the moment the session will stop).
  const ask = page.getByTestId('still-recording');
  await expect(ask).toBeVisible({ timeout: 90_000 });
  await expect(ask).toContainText('Still recording?');
  await expect(ask).toContainText('No one has spoken for a minute');
  await snap(page, 'captions-still-recording-light');
  await expectNoAxeViolations(page, 'captions, still recording?, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await snap(page, 'captions-still-recording-dark');
  await expectNoAxeViolations(page, 'captions, still recording?, dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Kept: the question goes and the session runs on.
  await ask.getByRole('button', { name: 'Keep recording' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByTestId('captions-stop')).toBeVisible();
  await expect(page.getByTestId('source-mic')).toContainText('Live');

  // Still silent: asked again, and with no answer the session stops itself, keeping everything.
  await expect(ask).toBeVisible({ timeout: 90_000 });
  const saved = page.getByTestId('caption-saved');
  await expect(saved).toContainText('Saved to the library', { timeout: 90_000 });
  await expect(saved).toContainText('with its recording');
  await expect(ask).toBeHidden();
  await expect(page.getByTestId('captions-start')).toBeEnabled();

  await page.getByRole('button', { name: 'Library' }).click();
  const row = page.getByTestId('library-row').filter({ hasText: 'Live session' }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText(/morning|budget|meeting|nine|everyone/i);
  await row.getByRole('button', { name: /^Open Live session/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Live session/ })).toBeVisible();
  await expect(page.getByTestId('transcript-body')).toContainText(/morning|budget|meeting|nine|everyone/i);
  await expect.poll(() => page.getByTestId('audio').evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 10_000 }).toBeGreaterThan(0);
});
