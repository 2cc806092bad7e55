/**
 * Speakers in live captions end to end in host mode: Chromium's fake audio device plays two generated
 * voices taking turns A/B/A (flite voices, each turn marked by the quiet tone the tiny speaker-embedding
 * model hears as the voice: tests/fixtures/models/speakers.ts) as the system audio; with "Tell apart who
 * speaks" on and Dana remembered with voice A's print, the panel and the overlay read Dana, Speaker A,
 * Dana; the saved session names them the same; axe finds nothing, light and dark.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import { installModel, MARKS, markedConversation, tinyEmbedding, wavBytes } from '../fixtures/models/speakers';
import { addCompleted } from '../support/library';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';
import { snap } from './snap';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-speakers-e2e-'));
const wav = join(dir, 'two-voices.wav');
const talk = markedConversation(
  join(dir, 'talk'),
  [
    { voice: 'A', text: 'Good morning and welcome to the weekly planning meeting.' },
    { voice: 'B', text: 'Thank you it is good to be back after the long holiday.' },
    { voice: 'A', text: 'Let us start with the budget for the next quarter.' },
  ],
  // Two seconds between voices, longer than a turn's longest silence, so each change of voice ends a turn.
  { gapMs: 2000 },
);
writeFileSync(join(dir, 'talk.wav'), wavBytes(talk.pcm));
// 48 kHz as a sound card gives it, and 3 s of silence so the last turn ends before Chromium loops the file.
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'talk.wav'), '-af', 'apad=pad_dur=3', '-ar', '48000', '-ac', '1', wav]);

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
});

/**
 * Host mode takes the system audio from an input labelled "Monitor of …" (PulseAudio's and PipeWire's
 * name for what the computer plays; capture.ts openSystemAudio). Chromium's fake capture offers no such
 * input, so one fake input is listed under a monitor's name; getUserMedia with its id is the fake device,
 * playing the file, as a monitor would play the call.
 */
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

/** Dana, remembered from an earlier recording: the tiny embedding model points voice A along its first axis. */
function rememberDana(dataDir: string): void {
  const lib = new Library(dataDir);
  const earlier = addCompleted(lib, 'Earlier meeting', [{ text: 'Morning.', start: 0, end: 1200, confidence: 0.9, speaker: 'A' }]);
  lib.voices.people.remember(earlier.recordingId, 'Dana', 'tiny-embedding', [{ vector: Float32Array.from([1, 0]), ms: 1200 }], 'A');
  lib.close();
}

test.describe('speakers in live captions', () => {
  test('labels the system audio’s voices by name and letter in the panel, the overlay and the saved session', async ({ page, host }) => {
    installModel(join(host.dataDir, 'models'), 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
    rememberDana(host.dataDir);
    await page.addInitScript(fakeMonitorInput);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
    await page.getByRole('radio', { name: /^System audio/ }).check();
    await page.getByText('Caption settings').click();
    const who = page.getByRole('switch', { name: 'Tell apart who speaks in the system audio' });
    await who.click({ force: true });
    await expect(who).toBeChecked();

    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('source-system')).toContainText('Live', { timeout: 90_000 });
    const panel = page.getByTestId('captions-panel');
    // The label of each finished line, and the order in which they change.
    const changes = async () => {
      const labels = await panel
        .locator('[data-testid="caption-line"][data-final="true"] .cap-src')
        .evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
      return labels.filter((l, i) => l !== labels[i - 1]).slice(0, 3);
    };
    await expect.poll(changes, { timeout: 90_000 }).toEqual(['Dana', 'Speaker A', 'Dana']);

    // The overlay: a pop-out window, or Document Picture-in-Picture where Chromium offers it; the same component.
    const popupOpened = page.waitForEvent('popup', { timeout: 8000 }).catch(() => null);
    await page.getByRole('button', { name: 'Pop out captions' }).click();
    const popup = await popupOpened;
    if (popup) {
      await expect(popup.getByTestId('captions-overlay')).toContainText(/Dana: |Speaker A: /, { timeout: 20_000 });
      await popup.close();
    } else {
      const pipText = () =>
        page.evaluate(
          () =>
            (window as unknown as { documentPictureInPicture?: { window: Window | null } }).documentPictureInPicture?.window?.document.body.textContent ?? '',
        );
      await expect.poll(pipText, { timeout: 20_000 }).toMatch(/Dana: |Speaker A: /);
    }
    await expectNoAxeViolationsInBothThemes(page, 'captions with speakers', 'captions-speakers');

    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Library' }).click();
    await page
      .getByTestId('library-row')
      .filter({ hasText: 'Live session' })
      .first()
      .getByRole('button', { name: /^Open Live session/ })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: /Live session/ })).toBeVisible();
    const body = page.getByTestId('transcript-body');
    await expect(body.getByRole('button', { name: 'Dana: rename' }).first()).toBeVisible();
    const names = await body.getByRole('button', { name: /: rename$/ }).evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
    expect(names.filter((n, i) => n !== names[i - 1]).slice(0, 3)).toEqual(['Dana', 'Speaker A', 'Dana']);
    await snap(page, 'captions-speakers-session-light');
  });
});
