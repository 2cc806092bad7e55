/**
 * A live session is linked to the people named in it, end to end in host mode: as in
 * captions-speakers.spec.ts, Chromium's fake audio device plays two generated voices A/B/A as the system
 * audio and Dana is remembered with voice A's print; once the session is saved, People lists it under Dana
 * ("recognised in live captions") and "Search what Dana said" finds her words, not the other voice's. axe,
 * light and dark.
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

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-people-e2e-'));
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

test.describe('people in live sessions', () => {
  test('a session where Dana was recognised is under Dana in People, and what she said is found', async ({ page, host }) => {
    installModel(join(host.dataDir, 'models'), 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
    rememberDana(host.dataDir);
    await page.addInitScript(fakeMonitorInput);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await page.getByRole('radio', { name: /^System audio/ }).check();
    await page.getByText('Caption settings').click();
    const who = page.getByRole('switch', { name: 'Tell apart who speaks in the system audio' });
    await who.click({ force: true });
    await expect(who).toBeChecked();

    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('source-system')).toContainText('Live', { timeout: 90_000 });
    const panel = page.getByTestId('captions-panel');
    const finals = () =>
      panel
        .locator('[data-testid="caption-line"][data-final="true"]')
        .evaluateAll((els) =>
          els.map((e) => ({ who: e.querySelector('.cap-src')?.textContent?.trim() ?? '', text: e.querySelector('.cap-line__text')?.textContent ?? '' })),
        );
    // Dana's second turn has ended.
    await expect.poll(async () => (await finals()).filter((l) => l.who === 'Dana').length, { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
    // A word only Dana said and one only the other voice said, as the recogniser heard them.
    const lines = await finals();
    const wordsOf = (who: (w: string) => boolean) => new Set(lines.filter((l) => who(l.who)).flatMap((l) => l.text.toLowerCase().match(/[a-z]{3,}/g) ?? []));
    const hers = wordsOf((w) => w === 'Dana');
    const others = wordsOf((w) => w !== 'Dana');
    const herWord = [...hers].find((w) => !others.has(w));
    const otherWord = [...others].find((w) => !hers.has(w));
    expect(herWord, JSON.stringify(lines)).toBeDefined();
    expect(otherWord, JSON.stringify(lines)).toBeDefined();
    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 20_000 });

    await page.getByRole('button', { name: 'People' }).click();
    const dana = page
      .getByRole('list', { name: 'Remembered voices' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Dana' }) });
    await expect(dana).toContainText('Earlier meeting named there');
    await expect(dana.getByRole('listitem').filter({ hasText: 'Live session' })).toContainText('recognised, in live captions');
    const said = page.getByRole('search', { name: 'What Dana said' });
    const box = said.getByRole('searchbox', { name: 'Search what Dana said' });
    await box.fill(herWord as string);
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText(/^\d+ places? found\.$/);
    await box.fill(otherWord as string);
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText('Nothing found.');
    await expectNoAxeViolationsInBothThemes(page, 'people with a live session', 'captions-people');
  });
});
