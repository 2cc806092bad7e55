/**
 * Live captions on a cloud service, end to end in host mode against a fake cloud (tests/support/fake-cloud-streaming:
 * a real /v3/ws that records each session's query): the captions' Live model picker offers the service's streaming
 * models with its default preselected, the chosen one is what the session asks for, and a SpeakerRevision the
 * service sends mid-stream relabels the line it names in the panel and the overlay, with a quiet "corrected" mark.
 * Axe finds nothing, light and dark, on the picker and on the revised line.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAMING_DEFAULT_MODEL } from '../../src/shared/api/service-models';
import { startFakeStreaming } from '../support/fake-cloud-streaming';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, launchHost, stopHost, test } from './host';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-cloud-e2e-'));
const wav = join(dir, 'tone.wav');
// The fake cloud answers from its script: the audio only has to flow (a second of tone, looped by Chromium).
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ar', '48000', '-ac', '1', wav]);

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
});

/** The system audio is taken from an input labelled "Monitor of …"; Chromium's fake input is listed under that name (as in captions-speakers.spec). */
function fakeMonitorInput(): void {
  const md = navigator.mediaDevices;
  const list = md.enumerateDevices.bind(md);
  md.enumerateDevices = async () => {
    const all = await list();
    const pick = all.find((d) => d.kind === 'audioinput' && d.deviceId !== 'default') ?? all.find((d) => d.kind === 'audioinput');
    return all.map((d) => {
      if (d !== pick) return d;
      const info = { deviceId: d.deviceId, groupId: d.groupId, kind: d.kind, label: 'Monitor of Built-in Audio' };
      return { ...info, toJSON: () => info } as MediaDeviceInfo;
    });
  };
}

test('cloud live captions: the model picker, the chosen model sent, and a revised speaker marked in the panel and overlay', async ({ page }) => {
  test.setTimeout(420_000);
  const live = await startFakeStreaming({
    turns: [
      { text: 'Good morning and welcome.', speaker: 'A' },
      { text: 'Thank you, glad to be here.', speaker: 'A' },
      { text: 'Let us start with the budget.', speaker: 'A' },
    ],
    // The service tells the second voice apart once it has heard more: mid-stream, after a second of audio.
    revision: [{ turn_order: 1, speaker_label: 'B' }],
    reviseAfterFrames: 20,
  });
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({ region: 'custom', customRestUrl: 'http://127.0.0.1:9', customStreamingUrl: live.url, customGatewayUrl: 'http://127.0.0.1:9' }),
  );
  const host = await launchHost(dataDir, { ASSEMBLYAI_API_KEY: 'sk-e2e-cloud' });
  try {
    await page.addInitScript(fakeMonitorInput);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
    await page.getByRole('radio', { name: /^System audio/ }).check();
    await page.getByText('Caption settings').click();

    // The picker: the service's streaming models, its default preselected and said to be the default.
    const picker = page.getByLabel('Live model');
    await expect(picker).toHaveValue(STREAMING_DEFAULT_MODEL);
    await expect(picker.locator('option:checked')).toHaveText(/the service’s default/);
    await expect(picker.locator('option[value="u3-rt-pro-beta-1"]')).toHaveCount(0);
    await picker.scrollIntoViewIfNeeded();
    await expectNoAxeViolationsInBothThemes(page, 'captions live model picker', 'captions-cloud-model-picker');
    await picker.selectOption('u3-rt-pro');
    await expect(picker).toHaveValue('u3-rt-pro');
    const who = page.getByRole('switch', { name: 'Tell apart who speaks in the system audio' });
    await who.click({ force: true });
    await expect(who).toBeChecked();

    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('source-system')).toContainText('Live', { timeout: 90_000 });
    const panel = page.getByTestId('captions-panel');
    const revisedLine = panel.getByTestId('caption-line').filter({ hasText: 'Thank you, glad to be here.' });
    await expect(revisedLine.getByTestId('caption-revised')).toHaveText('corrected', { timeout: 60_000 });
    await expect(revisedLine.locator('.cap-src')).toHaveText('Speaker B');
    await expect(panel.getByTestId('caption-revised')).toHaveCount(1);
    expect(live.queries[0]?.get('speech_model')).toBe('u3-rt-pro');
    expect(live.queries[0]?.get('speaker_labels')).toBe('true');

    // The overlay: a pop-out window, or Document Picture-in-Picture where Chromium offers it; the same component.
    const popupOpened = page.waitForEvent('popup', { timeout: 8000 }).catch(() => null);
    await page.getByRole('button', { name: 'Pop out captions' }).click();
    const popup = await popupOpened;
    if (popup) {
      await expect(popup.getByTestId('overlay-revised')).toContainText('corrected', { timeout: 20_000 });
      await popup.close();
    } else {
      const pipText = () =>
        page.evaluate(
          () =>
            (window as unknown as { documentPictureInPicture?: { window: Window | null } }).documentPictureInPicture?.window?.document.body.textContent ?? '',
        );
      await expect.poll(pipText, { timeout: 20_000 }).toMatch(/Speaker B \(corrected\): Thank you/);
    }
    await revisedLine.scrollIntoViewIfNeeded();
    await expectNoAxeViolationsInBothThemes(page, 'captions with a revised speaker', 'captions-cloud-revised');
    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 20_000 });
  } finally {
    await stopHost(host.child);
    await live.close();
  }
});
