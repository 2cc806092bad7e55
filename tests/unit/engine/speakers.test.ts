import { describe, expect, it } from 'vitest';
import type { Sentence, Word } from '../../../src/shared/api/transcript';
import { clusterAsAsked, clusterVoiceprints, paddedLength, type Clustering, type DiarizedSegment } from '../../../src/engine/recognizer/sherpa/diarize-plan';
import { assignSpeakers, buildUtterances, speakerAt, speakerLetter, speakSentences, type SpeakerTurn } from '../../../src/engine/text/speakers';

const word = (text: string, start: number, end: number): Word => ({ text, start, end, confidence: 0.9, speaker: null, channel: null });

describe('word assignment', () => {
  const turns: SpeakerTurn[] = [
    { start: 0, end: 2000, speaker: 3 },
    { start: 2000, end: 4000, speaker: 1 },
    { start: 6000, end: 8000, speaker: 3 },
  ];

  it('gives each word the speaker active at its midpoint', () => {
    expect(speakerAt({ start: 100, end: 500 }, turns)).toBe(3);
    // Starts in the first turn, but its midpoint (2100) is in the second.
    expect(speakerAt({ start: 1800, end: 2400 }, turns)).toBe(1);
  });

  it('resolves overlapping turns the same way every time: longest overlap, then earlier start, then lower cluster', () => {
    const overlap: SpeakerTurn[] = [
      { start: 1000, end: 3000, speaker: 2 },
      { start: 1500, end: 1900, speaker: 0 },
    ];
    // Both hold the midpoint 1700; speaker 2 overlaps the word 1500–1900 entirely as well, so the earlier-starting one wins.
    expect(speakerAt({ start: 1500, end: 1900 }, overlap)).toBe(2);
    expect(speakerAt({ start: 1500, end: 1900 }, [...overlap].reverse())).toBe(2);
    const same: SpeakerTurn[] = [
      { start: 0, end: 1000, speaker: 4 },
      { start: 0, end: 1000, speaker: 1 },
    ];
    expect(speakerAt({ start: 200, end: 400 }, same)).toBe(1);
    expect(speakerAt({ start: 200, end: 400 }, [...same].reverse())).toBe(1);
    // A word that overlaps one turn longer goes to that turn even when both hold its midpoint.
    expect(
      speakerAt({ start: 900, end: 2100 }, [
        { start: 1400, end: 1600, speaker: 0 },
        { start: 1000, end: 5000, speaker: 7 },
      ]),
    ).toBe(7);
  });

  it('gives a word between turns to the nearest turn, and no speaker with no turns', () => {
    expect(speakerAt({ start: 4200, end: 4400 }, turns)).toBe(1);
    expect(speakerAt({ start: 5600, end: 5800 }, turns)).toBe(3);
    expect(speakerAt({ start: 5000, end: 5000 }, turns)).toBe(1); // equidistant: the earlier turn
    expect(speakerAt({ start: 0, end: 10 }, [])).toBeNull();
  });

  it('letters speakers A, B, … in the order they are first heard', () => {
    const words = [word('one', 100, 400), word('two', 2200, 2600), word('three', 6200, 6500)];
    expect(assignSpeakers(words, turns).map((w) => w.speaker)).toEqual(['A', 'B', 'A']);
    expect(assignSpeakers(words, []).map((w) => w.speaker)).toEqual(['A', 'A', 'A']);
    expect(['A', 'Z', 'AA', 'AB'].map((_, i) => speakerLetter([0, 25, 26, 27][i] as number))).toEqual(['A', 'Z', 'AA', 'AB']);
  });
});

describe('utterances', () => {
  it('joins consecutive words of one speaker and splits at a change of speaker and at long pauses', () => {
    const words = assignSpeakers(
      [word('hello', 0, 300), word('there', 400, 700), word('hi', 2100, 2300), word('again', 2400, 2600), word('later', 6000, 6300)],
      [
        { start: 0, end: 1000, speaker: 0 },
        { start: 2000, end: 3000, speaker: 1 },
        { start: 5500, end: 7000, speaker: 1 },
      ],
    );
    const u = buildUtterances(words);
    expect(u.map((x) => [x.speaker, x.text, x.start, x.end])).toEqual([
      ['A', 'hello there', 0, 700],
      ['B', 'hi again', 2100, 2600],
      // Same speaker, but 3.4 s of silence before it.
      ['B', 'later', 6000, 6300],
    ]);
    expect(u[0]?.words.every((w) => w.speaker === 'A')).toBe(true);
    expect(u[0]?.confidence).toBe(0.9);
    expect(buildUtterances([])).toEqual([]);
  });

  it('gives sentences the speakers of their words, split where the speaker changes', () => {
    const plain = [word('a', 0, 100), word('b', 200, 300), word('c', 400, 500), word('d', 600, 700)];
    const sentences: Sentence[] = [
      { text: 'a b c', start: 0, end: 500, confidence: 0.9, words: plain.slice(0, 3), speaker: null, channel: null },
      { text: 'd', start: 600, end: 700, confidence: 0.9, words: plain.slice(3), speaker: null, channel: null },
    ];
    const labelled = plain.map((w, i) => ({ ...w, speaker: i === 0 ? 'A' : 'B' }));
    const out = speakSentences(sentences, labelled);
    expect(out.map((s) => [s.speaker, s.text, s.start, s.end])).toEqual([
      ['A', 'a', 0, 100],
      ['B', 'b c', 200, 500],
      ['B', 'd', 600, 700],
    ]);
    expect(out[1]?.words.map((w) => w.speaker)).toEqual(['B', 'B']);
  });
});

describe('clustering as asked', () => {
  /** A fake diarizer: a fixed count returns that many speakers unless it exceeds `embeddings` (then everyone is 0, as sherpa-onnx does); the threshold finds `natural`. */
  function fake(natural: number, embeddings = 8) {
    const calls: Clustering[] = [];
    const run = (c: Clustering): Promise<DiarizedSegment[]> => {
      calls.push(c);
      const n = 'numClusters' in c ? (c.numClusters > embeddings ? 1 : c.numClusters) : natural;
      return Promise.resolve(Array.from({ length: 8 }, (_, i) => ({ start: i, end: i + 1, speaker: i % n })));
    };
    return { calls, run };
  }
  const speakers = (s: DiarizedSegment[]): number => new Set(s.map((x) => x.speaker)).size;

  it('uses the threshold when no count is given', async () => {
    const f = fake(3);
    const r = await clusterAsAsked({ expected: null, min: null, max: null }, f.run);
    expect(f.calls).toEqual([{ threshold: 0.5 }]);
    expect(speakers(r.segments)).toBe(3);
  });

  it('treats zero as not given, never passing a zero to sherpa-onnx', async () => {
    const f = fake(2);
    await clusterAsAsked({ expected: 0, min: 0, max: 0 }, f.run);
    expect(f.calls).toEqual([{ threshold: 0.5 }]);
  });

  it('asks for the expected count, and needs no run for one speaker', async () => {
    const f = fake(3);
    const r = await clusterAsAsked({ expected: 2, min: null, max: null }, f.run);
    expect(f.calls).toEqual([{ numClusters: 2 }]);
    expect(speakers(r.segments)).toBe(2);
    const one = fake(3);
    expect((await clusterAsAsked({ expected: 1, min: null, max: null }, one.run)).segments).toEqual([]);
    expect(one.calls).toEqual([]);
  });

  it('falls back to the threshold when more speakers are expected than there are embeddings', async () => {
    const f = fake(2, 3);
    const r = await clusterAsAsked({ expected: 5, min: null, max: null }, f.run);
    expect(f.calls).toEqual([{ numClusters: 5 }, { threshold: 0.5 }]);
    expect(speakers(r.segments)).toBe(2);
    expect(r.warning).toMatch(/speakers_expected was 5, but only 2 voices/);
  });

  it('raises the count to min_speakers_expected and lowers it to max_speakers_expected', async () => {
    const few = fake(1);
    const r1 = await clusterAsAsked({ expected: null, min: 2, max: 4 }, few.run);
    expect(few.calls).toEqual([{ threshold: 0.5 }, { numClusters: 2 }]);
    expect(speakers(r1.segments)).toBe(2);
    const many = fake(6);
    const r2 = await clusterAsAsked({ expected: null, min: 2, max: 4 }, many.run);
    expect(many.calls).toEqual([{ threshold: 0.5 }, { numClusters: 4 }]);
    expect(speakers(r2.segments)).toBe(4);
    const inside = fake(3);
    await clusterAsAsked({ expected: null, min: 2, max: 4 }, inside.run);
    expect(inside.calls).toEqual([{ threshold: 0.5 }]);
    const atMostOne = fake(3);
    expect(speakers((await clusterAsAsked({ expected: null, min: null, max: 1 }, atMostOne.run)).segments)).toBe(1);
  });

  it('pads audio no longer than the window past it, so it is clustered like a long file', () => {
    expect(paddedLength(160000, 160000, 16000)).toBe(176000);
    expect(paddedLength(1000, 160000, 16000)).toBe(176000);
    expect(paddedLength(160001, 160000, 16000)).toBeNull();
  });

  it('joins voiceprints across pieces by threshold or by count, numbered by first appearance', () => {
    const a = [1, 0, 0.1];
    const a2 = [0.9, 0.05, 0.1];
    const b = [0, 1, 0];
    const c = [0.1, 0.2, 1];
    expect(clusterVoiceprints([b, a, a2, b, c], { threshold: 0.5 })).toEqual([0, 1, 1, 0, 2]);
    expect(clusterVoiceprints([b, a, a2, b, c], { numClusters: 2 })).toHaveLength(5);
    expect(new Set(clusterVoiceprints([b, a, a2, b, c], { numClusters: 2 })).size).toBe(2);
    expect(clusterVoiceprints([a, b], { numClusters: 5 })).toEqual([0, 1]);
    expect(clusterVoiceprints([], { threshold: 0.5 })).toEqual([]);
  });
});
