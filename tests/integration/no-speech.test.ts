/**
 * Audio with no speech in it (a tone, music) through the local engine and
 * the app: the engine answers as the published API does, a completed
 * transcript with empty text and no words, not an error; the app keeps it
 * and names it as a recording in which no speech was found.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { AssemblyAI } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { makeTone } from '../fixtures/speech';
import { engineSandbox, type EngineSandbox } from '../support/engine';

const KEY = 'test-key-no-speech';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let client: AssemblyAI;

/** Four seconds of plucked chords (sox): music with no voice. */
function makeChords(dir: string): string {
  const out = join(dir, 'chords.wav');
  execFileSync('sox', [
    '-n',
    '-r',
    '16000',
    '-c',
    '1',
    '-b',
    '16',
    out,
    'synth',
    '1',
    'pluck',
    'C4',
    'pluck',
    'E4',
    'pluck',
    'G4',
    'repeat',
    '3',
    'norm',
    '-3',
  ]);
  return out;
}

beforeAll(async () => {
  sandbox = engineSandbox('engine-no-speech-');
  engine = await sandbox.start(KEY, { workers: 1 });
  client = new AssemblyAI({ apiKey: KEY, baseUrl: engine.url });
});

afterAll(() => sandbox.cleanup());

describe('audio with no speech in it', () => {
  it.each([
    ['a 440 Hz tone', () => makeTone(sandbox.dir, 'tone', 4)],
    ['plucked chords', () => makeChords(sandbox.dir)],
  ])(
    '%s: completed, empty text, no words, as the published API answers',
    async (_label, make) => {
      const t = await client.transcripts.transcribe({ audio: await client.files.upload(make()) }, { pollingInterval: 200 });
      expect(t.status).toBe('completed');
      expect(t.error ?? null).toBeNull();
      expect(t.text).toBe('');
      expect(t.words).toEqual([]);
      expect(t.audio_duration).toBeGreaterThanOrEqual(3);
    },
    120_000,
  );
});
