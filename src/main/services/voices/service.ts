/**
 * Speakers from voiceprints, without recognition: a recording's turn voiceprints are taken once by the local
 * engine (POST /v2/voiceprints, from the library's own copy of the audio, for local and cloud transcripts
 * alike, so they never reach a cloud service) and kept in the library; "Re-cluster as N speakers" or "Auto"
 * then groups the kept prints again in seconds. Auto folds groups with under 1.5 s of speech (phantom
 * speakers) into their nearest neighbour and the transcript says how many.
 */
import { AppError } from '../../../shared/errors';
import { groupVoices, mergePhantoms, SAME_VOICE, speakerLetter } from '../../../shared/voices/cluster';
import { VoiceprintsResponseSchema } from '../../../shared/voices/wire';
import { httpError, send } from '../client/http';
import { RestClient } from '../client/rest';
import type { Library } from '../library/library';
import type { SpeakerNote, StoredTurn } from '../library/voices';
import type { VoiceStore } from '../library/voices';
import type { EngineManager } from '../local-engine';
import { voiceTurns, wordsWithGroups } from './turns';

/** Groups with less speech than this are phantoms in Auto. */
export const PHANTOM_MS = 1500;

export class VoicesService {
  constructor(
    private readonly library: Library,
    private readonly store: VoiceStore,
    private readonly engine: EngineManager,
  ) {}

  private audioOf(recordingId: string): string {
    const path = this.library.audio.path(recordingId) ?? this.library.sessions.audioPath(recordingId);
    if (!path)
      throw new AppError('not_found', 'The audio of this recording is not in the library and its original file is gone, so its voices cannot be read.');
    return path;
  }

  /** The turn voiceprints of a recording's current transcript: the kept ones, or taken now by the local engine and kept. */
  async turns(recordingId: string): Promise<{ transcriptId: string; turns: StoredTurn[] }> {
    const t = this.library.transcripts.get(recordingId);
    const kept = this.store.turns(t.transcriptId);
    if (kept.length > 0) return { transcriptId: t.transcriptId, turns: kept };
    if (!t.words.some((w) => w.speaker !== null)) throw new AppError('bad_request', 'This transcript has no speakers yet: use Add speakers first.');
    const turns = voiceTurns(t.words);
    const h = await this.engine.ensure();
    const uploadUrl = await new RestClient(h.url, h.key).upload(this.audioOf(recordingId));
    const res = await send({
      method: 'POST',
      url: `${h.url}/v2/voiceprints`,
      headers: { authorization: h.key },
      json: {
        upload_url: uploadUrl,
        segments: turns.map((x) => ({ start: Math.max(0, Math.round(x.start)), end: Math.max(Math.round(x.start) + 1, Math.round(x.end)) })),
      },
      idleTimeoutMs: 300_000,
    });
    if (res.status !== 200) throw httpError(res, 'reading the voices');
    const body = VoiceprintsResponseSchema.parse(JSON.parse(res.body.toString('utf8')));
    const stored = turns.map((x, i) => ({ ...x, model: body.model, vector: body.embeddings[i] ? Float32Array.from(body.embeddings[i] as number[]) : null }));
    this.store.saveTurns(t.transcriptId, stored);
    return { transcriptId: t.transcriptId, turns: stored };
  }

  /**
   * Keeps the speakers as they are but folds those with under PHANTOM_MS of speech into the voice they sound
   * nearest (what a finished transcript with speakers gets once); the note says how many. Answers the note,
   * or null when nothing was folded.
   */
  async foldPhantoms(recordingId: string): Promise<SpeakerNote | null> {
    const { transcriptId, turns } = await this.turns(recordingId);
    const words = this.library.transcripts.words(transcriptId);
    const labelled = turns.filter((t) => t.vector && words[t.firstWord]?.speaker);
    const ids = [...new Set(labelled.map((t) => words[t.firstWord]?.speaker as string))];
    if (ids.length < 2) return null;
    const r = mergePhantoms(
      labelled.map((t) => ({ vector: t.vector as Float32Array, ms: t.end - t.start })),
      labelled.map((t) => ids.indexOf(words[t.firstWord]?.speaker as string)),
      PHANTOM_MS,
    );
    if (r.merged === 0) return null;
    // Each folded speaker's words take the label of the group it joined (the first speaker of that group).
    const into = new Map<string, string>();
    labelled.forEach((t, i) => {
      const group = r.groups[i] as number;
      const head = labelled.find((_, k) => r.groups[k] === group) as StoredTurn;
      into.set(words[t.firstWord]?.speaker as string, words[head.firstWord]?.speaker as string);
    });
    const relabelled = words.map((w) => (w.speaker && into.has(w.speaker) ? { ...w, speaker: into.get(w.speaker) as string } : w));
    const note: SpeakerNote = { speakers: new Set(into.values()).size, merged: r.merged, asked: 'auto' };
    this.store.relabel(recordingId, transcriptId, relabelled, note);
    return note;
  }

  /** Groups the kept turn voiceprints again as `speakers` (1–10), or by similarity when null (Auto), and relabels the transcript. */
  async recluster(recordingId: string, speakers: number | null): Promise<SpeakerNote> {
    const { transcriptId, turns } = await this.turns(recordingId);
    const withPrint = turns.map((t, i) => ({ t, i })).filter((x) => x.t.vector !== null);
    if (withPrint.length === 0) throw new AppError('bad_request', 'No turn of this recording is long enough to tell its voice.');
    let groups = groupVoices(
      withPrint.map((x) => x.t.vector as Float32Array),
      speakers ? { speakers } : { threshold: SAME_VOICE },
    );
    let merged = 0;
    if (speakers === null) {
      const r = mergePhantoms(
        withPrint.map((x) => ({ vector: x.t.vector as Float32Array, ms: x.t.end - x.t.start })),
        groups,
        PHANTOM_MS,
      );
      groups = r.groups;
      merged = r.merged;
    }
    // Turns too short for a print take the group of the nearest turn that has one.
    const groupOf = turns.map((t, i) => {
      let best = 0;
      withPrint.forEach((x, k) => {
        const b = withPrint[best] as { t: StoredTurn };
        if (Math.abs(x.i - i) < Math.abs(turns.indexOf(b.t) - i)) best = k;
      });
      return t.vector ? (groups[withPrint.findIndex((x) => x.i === i)] as number) : (groups[best] as number);
    });
    // Letters by first appearance in the transcript.
    const order = new Map<number, number>();
    const letters = groupOf.map((g) => {
      if (!order.has(g)) order.set(g, order.size);
      return speakerLetter(order.get(g) as number);
    });
    const words = wordsWithGroups(this.library.transcripts.words(transcriptId), turns, letters);
    const note: SpeakerNote = { speakers: order.size, merged, asked: speakers === null ? 'auto' : String(speakers) };
    this.store.relabel(recordingId, transcriptId, words, note);
    return note;
  }
}
