/**
 * Speakers from voiceprints, without recognition: a recording's turn voiceprints are taken once by the local
 * engine (POST /v2/voiceprints, from the library's own copy of the audio, for local and cloud transcripts
 * alike, so they never reach a cloud service) and kept in the library; "Re-cluster as N speakers" or "Auto"
 * then groups the kept prints again in seconds. Auto folds groups with under 1.5 s of speech (phantom
 * speakers) into their nearest neighbour and the transcript says how many.
 */
import type { FileHandle } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import type { Word } from '../../../shared/library';
import { groupSteps, mergePhantoms, SAME_VOICE, speakerLetter } from '../../../shared/voices/cluster';
import { VoiceprintsResponseSchema } from '../../../shared/voices/wire';
import { httpError, send } from '../client/http';
import { RestClient } from '../client/rest';
import type { Library } from '../library/library';
import type { CarriedName, SpeakerNote, StoredTurn } from '../library/voices';
import type { VoiceStore } from '../library/voices';
import type { EngineManager } from '../local-engine';
import { carryNames, type NamedSpeaker } from './carry';
import { usableTurns, voiceTurns, wordsWithGroups } from './turns';

/** Groups with less speech than this are phantoms in Auto. */
export const PHANTOM_MS = 1500;

export class VoicesService {
  constructor(
    private readonly library: Library,
    private readonly store: VoiceStore,
    private readonly engine: EngineManager,
    /** How a user's original file (not the library's copy) is opened: the files owner's check (core.ts); read from that descriptor only. Unset: by its path. */
    private readonly openOriginal?: (path: string) => Promise<{ size: number; handle: FileHandle; close(): Promise<void> }>,
  ) {}

  /** The recording's audio for the engine: the library's copy by its path, the user's original opened through the check (never its path again). */
  private async audioOf(recordingId: string): Promise<{ source: string | { name: string; size: number; handle: FileHandle }; close(): Promise<void> }> {
    const path = this.library.audio.path(recordingId) ?? this.library.sessions.audioPath(recordingId);
    if (!path)
      throw new AppError('not_found', 'The audio of this recording is not in the library and its original file is gone, so its voices cannot be read.');
    if (!this.openOriginal || this.library.audio.isLibraryCopy(path)) return { source: path, close: async () => undefined };
    const opened = await this.openOriginal(path);
    return { source: { name: path, size: opened.size, handle: opened.handle }, close: () => opened.close() };
  }

  /** The turn voiceprints of a recording's current transcript: the kept ones, or taken now by the local engine and kept. */
  async turns(recordingId: string): Promise<{ transcriptId: string; turns: StoredTurn[] }> {
    const t = this.library.transcripts.get(recordingId);
    // Kept rows are checked against the words (a restored backup's may point past them); none usable: taken again.
    const kept = usableTurns(this.store.turns(t.transcriptId), t.words.length);
    if (kept.length > 0) return { transcriptId: t.transcriptId, turns: kept };
    if (!t.words.some((w) => w.speaker !== null)) throw new AppError('bad_request', 'This transcript has no speakers yet: use Add speakers first.');
    const turns = voiceTurns(t.words);
    // The file is checked before the engine is asked for: a refused original starts nothing.
    const audio = await this.audioOf(recordingId);
    let h: Awaited<ReturnType<EngineManager['ensure']>>;
    let uploadUrl: string;
    try {
      h = await this.engine.ensure();
      uploadUrl = await new RestClient(h.url, h.key).upload(audio.source);
    } finally {
      await audio.close();
    }
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

  /**
   * Letters as live captions give them: the speakers nobody is named for take A, B, … in order of first
   * appearance, and the named ones (a recognised voice, say) the letters after, so the voice that is "Speaker
   * A" in a session's live captions is Speaker A in its transcribed recording too. Names, matches and the
   * prints a voice took from this recording follow their speakers. Nothing changes when nobody is named.
   */
  unnamedFirst(recordingId: string): void {
    const t = this.library.transcripts.get(recordingId);
    const names = new Map(t.speakers.filter((s) => s.name).map((s) => [s.id, s.name as string]));
    if (names.size === 0) return;
    const order = [...new Set(t.words.map((w) => w.speaker).filter((s): s is string => s !== null))];
    const next = [...order.filter((id) => !names.has(id)), ...order.filter((id) => names.has(id))];
    const letter = new Map(next.map((id, i) => [id, speakerLetter(i)]));
    if (order.every((id) => letter.get(id) === id)) return;
    const matches = new Map(this.store.people.matches(t.transcriptId).map((m) => [m.speaker, m]));
    const words = t.words.map((w) => (w.speaker === null ? w : { ...w, speaker: letter.get(w.speaker) as string }));
    const carried: CarriedName[] = [...names].flatMap(([id, name]) =>
      letter.has(id)
        ? [{ letter: letter.get(id) as string, before: id, name, voiceId: matches.get(id)?.voiceId ?? null, similarity: matches.get(id)?.similarity ?? null }]
        : [],
    );
    this.store.relabel(recordingId, t.transcriptId, words, null, carried);
  }

  /** A speaker of a transcript (a live session's, labelled with a person's name) takes the first letter no speaker there has; other names and matches stay. */
  reletter(recordingId: string, transcriptId: string, speaker: string): void {
    const t = this.library.transcripts.get(recordingId, transcriptId);
    const words = t.words;
    const used = new Set([...t.speakers.map((s) => s.id), ...words.map((w) => w.speaker)]);
    let i = 0;
    while (used.has(speakerLetter(i))) i++;
    const letter = speakerLetter(i);
    const matches = new Map(this.store.people.matches(transcriptId).map((m) => [m.speaker, m]));
    const carried: CarriedName[] = t.speakers
      .filter((s) => s.name && s.id !== speaker)
      .map((s) => ({
        letter: s.id,
        before: s.id,
        name: s.name as string,
        voiceId: matches.get(s.id)?.voiceId ?? null,
        similarity: matches.get(s.id)?.similarity ?? null,
      }));
    this.store.relabel(
      recordingId,
      transcriptId,
      words.map((w) => (w.speaker === speaker ? { ...w, speaker: letter } : w)),
      null,
      carried,
    );
  }

  /** Groups the kept turn voiceprints again as `speakers` (1–10), or by similarity when null (Auto), and relabels the transcript. One re-cluster of a recording at a time. */
  recluster(recordingId: string, speakers: number | null): Promise<SpeakerNote> {
    const prev = this.running.get(recordingId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.reclusterNow(recordingId, speakers));
    this.running.set(recordingId, next);
    void next.catch(() => undefined).then(() => this.running.get(recordingId) === next && this.running.delete(recordingId));
    return next;
  }

  private readonly running = new Map<string, Promise<SpeakerNote>>();

  private async reclusterNow(recordingId: string, speakers: number | null): Promise<SpeakerNote> {
    const { transcriptId, turns } = await this.turns(recordingId);
    const withPrint = turns.map((t, i) => ({ t, i })).filter((x) => x.t.vector !== null);
    if (withPrint.length === 0) throw new AppError('bad_request', 'No turn of this recording is long enough to tell its voice.');
    // In slices on main's event loop (a two-hour meeting has ~2,000 turns: about 2 million similarities).
    let groups = await sliced(
      groupSteps(
        withPrint.map((x) => x.t.vector as Float32Array),
        speakers ? { speakers } : { threshold: SAME_VOICE },
      ),
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
    // Turns too short for a print take the group of the nearest turn that has one (the earlier on a tie).
    const groupAt = new Array<number>(turns.length);
    withPrint.forEach((x, k) => (groupAt[x.i] = groups[k] as number));
    let before = -1;
    let p = 0;
    const groupOf = turns.map((t, i) => {
      while (p < withPrint.length && (withPrint[p] as { i: number }).i <= i) before = (withPrint[p++] as { i: number }).i;
      if (t.vector) return groupAt[i] as number;
      const after = p < withPrint.length ? (withPrint[p] as { i: number }).i : -1;
      return groupAt[before >= 0 && (after < 0 || i - before <= after - i) ? before : after] as number;
    });
    // Letters by first appearance in the transcript.
    const order = new Map<number, number>();
    const letters = groupOf.map((g) => {
      if (!order.has(g)) order.set(g, order.size);
      return speakerLetter(order.get(g) as number);
    });
    const old = this.library.transcripts.words(transcriptId);
    const words = wordsWithGroups(old, turns, letters);
    const carried = this.carried(recordingId, transcriptId, turns, letters, old);
    const note: SpeakerNote = { speakers: order.size, merged, asked: speakers === null ? 'auto' : String(speakers) };
    this.store.relabel(recordingId, transcriptId, words, note, carried);
    return note;
  }

  /** The names the new letters keep (carry.ts): each named speaker's to the new group of its voice. */
  private carried(recordingId: string, transcriptId: string, turns: readonly StoredTurn[], letters: readonly string[], old: readonly Word[]): CarriedName[] {
    const people = this.store.people;
    const names = this.library.transcripts.get(recordingId).speakers.filter((s) => s.name);
    // Voices named here that an earlier re-cluster left without a letter (two names, one group) come back too.
    const namedHere = people.namedIn(recordingId);
    if (names.length === 0 && namedHere.length === 0) return [];
    const matches = new Map(people.matches(transcriptId).map((m) => [m.speaker, m]));
    const known = new Map(people.known(turns.find((t) => t.vector)?.model ?? '').map((k) => [k.id, k.vector]));
    const named: NamedSpeaker[] = names.map((s) => {
      const m = matches.get(s.id);
      const vector = m ? known.get(m.voiceId) : undefined;
      return { speaker: s.id, name: s.name as string, voice: m && vector ? { id: m.voiceId, vector, similarity: m.similarity } : null };
    });
    for (const h of namedHere) {
      const vector = known.get(h.voiceId);
      if (vector && !named.some((n) => n.voice?.id === h.voiceId))
        named.push({ speaker: h.speaker, name: h.name, voice: { id: h.voiceId, vector, similarity: 1 } });
    }
    const carry = carryNames(
      turns.map((t, i) => ({ before: old[t.firstWord]?.speaker ?? null, after: letters[i] as string, ms: t.end - t.start, vector: t.vector })),
      named,
    );
    return [...carry].map(([letter, c]) => ({
      letter,
      before: c.speaker,
      name: c.name,
      voiceId: c.voice?.id ?? matches.get(c.speaker)?.voiceId ?? null,
      // Named here stays named (1 and prints of this recording); a recognised voice takes its new similarity.
      similarity:
        c.voice && !matches.get(c.speaker)?.named && c.similarity !== null ? Math.round(c.similarity * 1000) / 1000 : (matches.get(c.speaker)?.similarity ?? 1),
    }));
  }
}

/** Runs a computation's steps (a generator) in slices of at most `sliceMs` on the event loop, yielding to it between slices; answers its value. */
export async function sliced<T>(steps: Generator<void, T>, sliceMs = 20): Promise<T> {
  for (;;) {
    const until = performance.now() + sliceMs;
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (performance.now() >= until) break;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
