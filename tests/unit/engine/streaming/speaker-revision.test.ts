/**
 * SpeakerRevision (revisions.ts): the session's turn voiceprints re-clustered all at once fix what online
 * labelling got wrong from the order turns came in, and list only the turns whose label changed, in the
 * SDK's shape. The interval of mid-stream revisions is clamped to 120-300 s of audio, as the SDK documents.
 */
import { describe, expect, it } from 'vitest';
import { TurnVoices } from '../../../../src/engine/streaming/turn-voices';
import { reviseSpeakers } from '../../../../src/engine/streaming/revisions';
import { SessionNotices } from '../../../../src/engine/streaming/notices';
import { parseParams } from '../../../../src/engine/streaming/params';
import { SpeakerRevisionSchema } from '../../../../src/shared/api/streaming';

/** Each turn's audio is one constant value; the "embedding model" maps it to a print. */
const PRINTS: Record<number, number[]> = {
  // A first turn heard poorly (a far microphone, crosstalk): between the two voices, nearer A.
  1: [0.8, 0.6, 0],
  2: [0, 1, 0], // voice B
  3: [1, 0, 0], // voice A
};
const embed = async (parts: Int16Array[]) => Float32Array.from(PRINTS[parts[0]?.[0] ?? 0] ?? [0, 0, 1]);
const words = (t: string) => [{ text: t, start: 0, end: 500, confidence: 0.9, word_is_final: true }];

async function session(values: number[]): Promise<{ voices: TurnVoices; labels: string[] }> {
  const voices = new TurnVoices(embed, null);
  const labels: string[] = [];
  let at = 0;
  for (const [i, v] of values.entries()) {
    const pcm = new Int16Array(1500 * 16).fill(v);
    voices.hear(pcm, at);
    const { label, record } = voices.labelTurn(at, at + pcm.length);
    labels.push(await label);
    Object.assign(record, { order: i, words: words(`turn${i}`) });
    at += pcm.length;
  }
  return { voices, labels };
}

describe('SpeakerRevision', () => {
  it('re-clusters offline: the early turn that online labelling put with the wrong voice is revised, only it', async () => {
    // Online: turn 0 starts A; turn 1 (B) is similar enough to it (0.6) to join; turn 2 (A) then is not (0.45): a new "B".
    const { voices, labels } = await session([1, 2, 3, 3]);
    expect(labels).toEqual(['A', 'A', 'B', 'B']);
    const revision = await reviseSpeakers(voices);
    expect(SpeakerRevisionSchema.safeParse(revision).success).toBe(true);
    // Offline, turn 0 goes with turns 2 and 3 (0.8), turn 1 stands alone: the group of three keeps its "B", turn 1 keeps "A".
    expect(revision?.revisions).toEqual([{ turn_order: 0, speaker_label: 'B', words: [{ ...words('turn0')[0], speaker: 'B' }] }]);
    expect(voices.records.map((r) => r.label)).toEqual(['B', 'A', 'B', 'B']);
    // Nothing changed since: no second revision.
    expect(await reviseSpeakers(voices)).toBeNull();
  });

  it('sends nothing when online labelling was right', async () => {
    const { voices, labels } = await session([3, 2, 3]);
    expect(labels).toEqual(['A', 'B', 'A']);
    expect(await reviseSpeakers(voices)).toBeNull();
  });

  it('clamps speaker_labels_revision_interval_ms to 120-300 s (0: only the last) and says when one is due on the audio clock', () => {
    const q = (v: string) => parseParams(new URLSearchParams(`speaker_labels=true&speaker_labels_revision_interval_ms=${v}`)).speakerRevisionMs;
    expect(q('0')).toBe(0);
    expect(q('5000')).toBe(120_000);
    expect(q('200000')).toBe(200_000);
    expect(q('999999')).toBe(300_000);
    expect(() => q('86400001')).toThrow(/speaker_labels_revision_interval_ms/);
    const n = new SessionNotices(() => undefined, Date.now());
    const p = { acknowledgeSilence: false, sessionHeartbeat: false, speakerRevisionMs: 120_000 };
    const due = [60_000, 119_999, 120_000, 180_000, 240_000, 240_001].map((ms) => n.audio(ms, true, p));
    expect(due).toEqual([false, false, true, false, true, false]);
  });
});
