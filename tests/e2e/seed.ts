/**
 * Fills a host-mode data folder with completed transcripts through the app's
 * own Library service (real SQLite, real FTS), for screenshots, list and
 * transcript benchmarks. Run before the host starts on that folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';

const vocabulary = (
  'the a of and to in we is that it for on with as this was at by be are from or have an they which one you had not but what all were when there can more if out so said up its about into them than then time could now only like other people just know see two first well way even new want because any these give day most us ' +
  'market budget quarter interview research transcript recording meeting customer product launch design engineering schedule review project team report data model speech audio question answer'
).split(' ');

/** A small seeded generator: the same seed gives the same words, whatever ran before in this process. */
export function seededRandom(seed = 42): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

// makeWords' own generator goes on from call to call (a test that makes many transcripts gets different ones);
// seedLibrary starts a fresh one per library, so a library never depends on which test ran before it in the
// same Playwright worker (transcript.spec once found no low-confidence word in its first transcript that way).
const processRandom = seededRandom(42);

export function makeWords(n: number, speakers: string[] = [], rand: () => number = processRandom): Word[] {
  const words: Word[] = [];
  let t = 300;
  let speaker = speakers[0] ?? null;
  for (let i = 0; i < n; i++) {
    if (speakers.length > 1 && i > 0 && i % 90 === 0) speaker = speakers[(i / 90) % speakers.length] ?? null;
    let text = vocabulary[Math.floor(rand() * vocabulary.length)] as string;
    if (i % 12 === 0) text = text[0]?.toUpperCase() + text.slice(1);
    if (i % 12 === 11) text += '.';
    const dur = 180 + Math.floor(rand() * 260);
    words.push({ text, start: t, end: t + dur, confidence: rand() < 0.04 ? 0.3 + rand() * 0.2 : 0.85 + rand() * 0.15, speaker });
    t += dur + 40 + Math.floor(rand() * 80);
  }
  return words;
}

export interface SeedOptions {
  count: number;
  wordsPer: number;
  titlePrefix?: string;
  speakers?: string[];
  audioFile?: string;
  tags?: string[];
}

export function seedLibrary(dataDir: string, opts: SeedOptions): string[] {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const ids: string[] = [];
  const base = Date.parse('2026-01-05T09:00:00Z');
  const rand = seededRandom(42);
  lib.transaction(() => {
    for (let i = 0; i < opts.count; i++) {
      const words = makeWords(opts.wordsPer, opts.speakers, rand);
      const { recordingId, transcriptId } = lib.recordings.add(
        {
          title: `${opts.titlePrefix ?? 'Recording'} ${String(i + 1).padStart(5, '0')}`,
          source: `recording-${i + 1}.mp3`,
          sourceKind: 'file',
          sizeBytes: 1_000_000 + i,
          region: i % 7 === 0 ? 'eu' : i % 5 === 0 ? 'us' : 'local',
          baseUrl: null,
          options: {},
        },
        { now: new Date(base + i * 3_600_000).toISOString() },
      );
      lib.transcripts.complete(transcriptId, {
        remoteId: `seed-${i}`,
        text: words.map((w) => w.text).join(' '),
        words,
        sentences: null,
        paragraphs: null,
        confidence: 0.91,
        language: 'en_us',
        model: 'sphinx-en-us',
        durationMs: (words[words.length - 1]?.end ?? 0) + 500,
      });
      if (opts.tags?.length) lib.recordings.setTags(recordingId, [opts.tags[i % opts.tags.length] as string]);
      if (opts.audioFile) lib.audio.attach(recordingId, opts.audioFile);
      ids.push(recordingId);
    }
  });
  lib.close();
  return ids;
}

/** A spoken WAV made by flite (real speech the local engine can recognize). */
export function fliteWav(dir: string, name: string, text: string): string {
  const out = join(dir, name);
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', out]);
  return out;
}
