/**
 * A live model slower than real time (issue 25), end to end in host mode: a tiny streaming model written by the
 * test is the default live model, the engine runs with VERBATIM_LIVE_SLOW_RTF=0 (every model counts as slow, so no
 * timing race decides it), and the captions screen says captions are falling behind, naming the model, with a
 * button that opens Settings → Models at the live-model picker. Axe in both themes, screenshots.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyModel } from '../fixtures/models/speech';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, launchHost, stopHost, test } from './host';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-slow-e2e-'));
const wav = join(dir, 'speech.wav');
execFileSync('flite', ['-voice', 'slt', '-t', 'Good morning everyone. The budget meeting starts at nine o clock today.', '-o', join(dir, 'raw.wav')]);
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'raw.wav'), '-af', 'apad=pad_dur=1', '-ar', '48000', '-ac', '1', wav]);

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a live model slower than real time: the screen says so and offers a smaller model', async ({ page }) => {
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeTinyModel(join(dataDir, 'models'), 'streaming-lstm');
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ models: { files: '', live: 'tiny-streaming-lstm', mirror: '' } }));
  const host = await launchHost(dataDir, { VERBATIM_LIVE_SLOW_RTF: '0' });
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
    await page.getByText('Caption settings').click();
    for (const name of ['Echo cancellation', 'Noise suppression', 'Automatic gain']) {
      const sw = page.getByRole('switch', { name });
      if (await sw.isChecked()) await sw.click({ force: true });
      await expect(sw).not.toBeChecked();
    }
    await page.getByTestId('captions-start').click();
    const warning = page.getByTestId('caption-warning');
    await expect(warning).toBeVisible({ timeout: 90_000 });
    await expect(warning).toContainText('Captions are falling behind.');
    await expect(warning).toContainText('tiny-streaming-lstm decodes slower than real time');
    await expectNoAxeViolationsInBothThemes(page, 'captions with a slow live model', 'captions-slow-model');

    await warning.getByRole('button', { name: 'Choose a smaller live model' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.getByLabel('Model for live captions')).toBeFocused();
    // The run goes on behind Settings; stop it from the captions screen.
    await page.getByRole('button', { name: 'Live captions' }).click();
    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toBeVisible({ timeout: 30_000 });
  } finally {
    await stopHost(host.child);
  }
});
