/**
 * Power lost during a re-cluster: a transcript of a long meeting (2,000
 * turns with kept voiceprints of four voices, 16,000 words, labelled A/B
 * wrongly and both labels named) is re-clustered by a child process holding
 * the library (support/recluster-child.ts: the app's VoicesService), which is
 * SIGKILLed at a random turn of its event loop while it groups the voices in
 * slices, as it starts the one transaction that writes the new labels, at
 * its first statement and in its middle, or once that write has returned
 * (then the new labels must be there).
 * Reopened, the transcript's speakers are all as before or all as a finished
 * re-cluster leaves them (words, paragraphs, speaker names and the note),
 * never a mix, the names are kept, and SQLite's integrity check passes. Ten
 * kills, each from the same library.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { addCompleted } from '../support/library';
import { killHard, seededRandom } from './support/powerloss';
import { ROOT } from './support/processes';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-recluster-'));
const pristine = join(dir, 'pristine');
const data = join(dir, 'data');
const KILLS = 10;
const TURNS = 2000;
const WORDS_PER_TURN = 8;
const VOICES = 4;
const DIM = 64;
const NAMES = { A: 'Dana', B: 'Priya' };
/** What each round asks for, in turn. */
const ASKED = ['4', 'auto', '3'] as const;
let recordingId = '';

/** Four voices far apart, each turn's print its voice's plus a little seeded noise. */
function prints(): Float32Array[] {
  let s = 7;
  const noise = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.2;
  const voices = Array.from({ length: VOICES }, (_, v) => Float32Array.from({ length: DIM }, (_, d) => (d % VOICES === v ? 1 : 0)));
  return Array.from({ length: TURNS }, (_, i) => Float32Array.from(voices[(i * 7 + (i >> 3)) % VOICES] as Float32Array, (x) => x + noise()));
}

beforeAll(() => {
  const lib = new Library(pristine);
  const words: Word[] = [];
  const turns = prints().map((vector, i) => {
    const first = words.length;
    const start = i * 6000;
    for (let k = 0; k < WORDS_PER_TURN; k++)
      words.push({
        text: `w${(i * 13 + k) % 97}${k === WORDS_PER_TURN - 1 ? '.' : ''}`,
        start: start + k * 600,
        end: start + k * 600 + 500,
        confidence: 0.9,
        // A wrong first grouping: two speakers by turn parity (each mixes two voices).
        speaker: i % 2 === 0 ? 'A' : 'B',
      });
    return { firstWord: first, lastWord: words.length - 1, start, end: start + WORDS_PER_TURN * 600 - 100, model: 'test-embedding', vector };
  });
  const ids = addCompleted(lib, 'Two-hour meeting', words);
  recordingId = ids.recordingId;
  lib.voices.saveTurns(ids.transcriptId, turns);
  lib.edits.renameSpeaker(recordingId, 'A', NAMES.A);
  lib.edits.renameSpeaker(recordingId, 'B', NAMES.B);
  lib.close();
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The transcript's speakers as the app shows them, after SQLite's integrity check of the file. */
function state(dataDir: string): string {
  const db = new Database(join(dataDir, 'library.sqlite'));
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
  const lib = new Library(dataDir);
  try {
    const t = lib.transcripts.get(recordingId);
    return JSON.stringify({
      words: t.words.map((w) => w.speaker).join(''),
      paragraphs: t.paragraphs.map((p) => `${p.firstWord}-${p.lastWord}:${p.speaker}`).join(' '),
      speakers: t.speakers.map((s) => ({ id: s.id, name: s.name })),
      note: lib.voices.note(t.transcriptId),
    });
  } finally {
    lib.close();
  }
}

interface Child {
  proc: ChildProcess;
  /** Resolves when the child prints a line `match` accepts; rejects if it exits first. */
  line(match: (l: string) => boolean): Promise<string>;
  stderr(): string;
}

function reclusterChild(asked: string): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tests/integration/support/recluster-child.ts'), data, recordingId, asked], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
  const lines: string[] = [];
  const waiting: { match: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    lines.push(l);
    for (const w of [...waiting]) {
      if (!w.match(l)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(l);
    }
  });
  return {
    proc,
    stderr: () => err,
    line: (match) =>
      new Promise((resolve, reject) => {
        const seen = lines.find(match);
        if (seen !== undefined) return resolve(seen);
        waiting.push({ match, resolve });
        proc.once('exit', (code, signal) => reject(new Error(`the re-cluster child exited (${code ?? signal}) first: ${err}`)));
      }),
  };
}

/** Starts from the library as it was built. */
function fresh(): void {
  rmSync(data, { recursive: true, force: true });
  cpSync(pristine, data, { recursive: true });
}

describe('power lost during a re-cluster', () => {
  it(`leaves the transcript's speakers all as before or all re-clustered, names kept, ${KILLS} kills out of ${KILLS}`, async () => {
    const rnd = seededRandom('powerloss-recluster');
    fresh();
    const before = state(data);
    expect(JSON.parse(before).speakers).toEqual([
      { id: 'A', name: NAMES.A },
      { id: 'B', name: NAMES.B },
    ]);
    // What a finished re-cluster leaves, for each ask: run to the end once, from the same library.
    const after = new Map<string, string>();
    const ticks = new Map<string, number>();
    for (const asked of ASKED) {
      fresh();
      const child = reclusterChild(asked);
      const done = await child.line((l) => l.startsWith('done '));
      await new Promise((r) => (child.proc.exitCode !== null ? r(null) : child.proc.once('exit', r)));
      ticks.set(asked, Number(/ticks (\d+)$/.exec(done)?.[1]));
      const s = state(data);
      const parsed = JSON.parse(s) as { speakers: { id: string; name: string | null }[]; note: { speakers: number } };
      expect(parsed.note.speakers, `asked ${asked}`).toBe(asked === 'auto' ? VOICES : Number(asked));
      // Both names were carried to a new speaker.
      expect(
        parsed.speakers
          .map((x) => x.name)
          .filter(Boolean)
          .sort(),
        `asked ${asked}`,
      ).toEqual([NAMES.A, NAMES.B]);
      expect(s).not.toBe(before);
      after.set(asked, s);
      console.log(`re-cluster as ${asked}: ${done} (${ticks.get(asked)} turns of the event loop)`);
    }

    const outcomes: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      const asked = ASKED[i % ASKED.length] as string;
      fresh();
      // Four rounds in the write: as it starts, at its first statement, in its middle (the kill lands in the transaction), and once it has returned; the others at a random turn of the grouping.
      const write = ({ 2: 'writing', 4: 'sql UPDATE words SET', 7: 'sql DELETE FROM speakers', 9: 'written' } as Record<number, string>)[i] ?? null;
      const point = write ?? `tick ${rnd.int(1, Math.max(1, (ticks.get(asked) as number) - 1))}`;
      const child = reclusterChild(asked);
      await child.line((l) => l === point || (write === null && l === 'writing'));
      await killHard(child.proc);

      const now = state(data);
      const outcome = now === before ? 'as before' : now === after.get(asked) ? 're-clustered' : 'a mix';
      console.log(`kill ${i + 1}: re-cluster as ${asked}, at ${point}; the transcript is ${outcome}`);
      expect(outcome, `kill ${i + 1} (re-cluster as ${asked}, at ${point})`).not.toBe('a mix');
      // A write that returned is kept.
      if (write === 'written') expect(outcome, `kill ${i + 1}`).toBe('re-clustered');
      outcomes.push(outcome);
    }
    expect(outcomes).toHaveLength(KILLS);
    console.log(
      `powerloss-recluster: ${outcomes.filter((o) => o === 'as before').length} as before, ${outcomes.filter((o) => o === 're-clustered').length} re-clustered`,
    );
  }, 600_000);
});
