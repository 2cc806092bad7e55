/**
 * What the live-speaker e2e specs share: two generated voices taking turns A/B/A as one WAV for Chromium's fake
 * audio device (each turn marked by the quiet tone the tiny speaker-embedding model hears as the voice:
 * tests/fixtures/models/speakers.ts), the fake "Monitor of …" input host mode takes the system audio from, and
 * Dana remembered with voice A's print.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import { markedConversation, wavBytes } from '../fixtures/models/speakers';
import { addCompleted } from '../support/library';

/** The A/B/A conversation as a 48 kHz WAV in a new folder named after `name`; its path. */
export function twoVoicesWav(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `verbatim-${name}-e2e-`));
  const wav = join(dir, 'two-voices.wav');
  const talk = markedConversation(
    join(dir, 'talk'),
    [
      // Short turns (about 1.5 s each): a voice, not a speech, is what each one has to carry.
      { voice: 'A', text: 'Good morning and welcome.' },
      { voice: 'B', text: 'Thank you, good to be back.' },
      { voice: 'A', text: 'Let us start with the budget.' },
    ],
    // Two seconds between voices, longer than a turn's longest silence, so each change of voice ends a turn.
    { gapMs: 2000 },
  );
  writeFileSync(join(dir, 'talk.wav'), wavBytes(talk.pcm));
  // 48 kHz as a sound card gives it, and 3 s of silence so the last turn ends before Chromium loops the file.
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'talk.wav'), '-af', 'apad=pad_dur=3', '-ar', '48000', '-ac', '1', wav]);
  return wav;
}

/**
 * Host mode takes the system audio from an input labelled "Monitor of …" (PulseAudio's and PipeWire's
 * name for what the computer plays; capture.ts openSystemAudio). Chromium's fake capture offers no such
 * input, so one fake input is listed under a monitor's name; getUserMedia with its id is the fake device,
 * playing the file, as a monitor would play the call.
 */
export function fakeMonitorInput(): void {
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
export function rememberDana(dataDir: string): void {
  const lib = new Library(dataDir);
  const earlier = addCompleted(lib, 'Earlier meeting', [{ text: 'Morning.', start: 0, end: 1200, confidence: 0.9, speaker: 'A' }]);
  lib.voices.people.remember(earlier.recordingId, 'Dana', 'tiny-embedding', [{ vector: Float32Array.from([1, 0]), ms: 1200 }], 'A');
  lib.close();
}
