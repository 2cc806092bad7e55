/**
 * People: voices a user named, remembered from the voiceprints of that speaker's turns, and recognised in
 * later recordings (local or cloud: the voiceprints are always taken by the local engine from the library's
 * own audio) when the match is at least the user's threshold. Voiceprints stay in the library; nothing here
 * sends one to a service.
 */
import { cosine, centroid } from '../../../shared/voices/cluster';
import { checkVoiceName, voiceNameKey } from '../../../shared/voices/names';
import { MAX_VOICEPRINT_DIM } from '../../../shared/voices/wire';
import { sourceLabels } from '../../../shared/audio-frame';
import type { SearchHit } from '../../../shared/library';
import type { Library } from '../library/library';
import type { VoiceSummary } from '../library/people';
import type { SettingsService } from '../settings';
import type { VoicesService } from './service';

/** A change naming at most this many recordings is linked to its people at once; more are linked in slices. */
const LINK_AT_ONCE = 200;
/** The longest a slice of that linking holds the event loop. */
const LINK_SLICE_MS = 20;

/** How similar a speaker must be to a remembered voice to take its name, unless the user set otherwise. */
export const DEFAULT_VOICE_MATCH = 0.75;

export interface VoiceMatch {
  speaker: string;
  voiceId: string;
  name: string;
  similarity: number;
  /** Named by the user in this recording, not recognised. */
  named: boolean;
}

/** Why a centroid print cannot go to the engine (not numbers, all zeros, too long), or null. */
function printProblem(v: Float32Array): string | null {
  if (v.length === 0 || v.length > MAX_VOICEPRINT_DIM) return `its print has ${v.length} values`;
  if (!v.every(Number.isFinite)) return 'its print holds values that are not numbers';
  return v.every((x) => x === 0) ? 'its print is all zeros' : null;
}

export class PeopleService {
  constructor(
    private readonly library: Library,
    private readonly voices: VoicesService,
    private readonly settings: SettingsService,
    private readonly log: (m: string) => void = () => undefined,
  ) {
    // A live session saved with speakers the engine named is linked to those people (People, "Said by").
    library.onChange((c) => {
      if (c.reason === 'deleted') return;
      for (const id of c.ids) this.toLink.push(id);
      // One saved session (the usual change) is linked at once; a restore's 50,000 recordings are looked up in
      // slices, one lookup each, with a turn of the event loop between (in one turn they held it for ~640 ms).
      if (this.toLink.length - this.linked <= LINK_AT_ONCE) this.linkSome(Infinity);
      else if (!this.linking) {
        this.linking = true;
        setImmediate(() => this.linkSlices());
      }
    });
  }

  /** Recordings whose live-session names are to be linked (see the constructor); those before `linked` are done. */
  private toLink: string[] = [];
  private linked = 0;
  private linking = false;

  private linkSlices(): void {
    this.linkSome(performance.now() + LINK_SLICE_MS);
    if (this.linked < this.toLink.length) setImmediate(() => this.linkSlices());
    else this.linking = false;
  }

  /** Links the waiting recordings until `until` (performance.now()) has passed. */
  private linkSome(until: number): void {
    let n = 0;
    while (this.linked < this.toLink.length) {
      // The library closed meanwhile (the app quits): nothing left to link.
      if (!this.library.isOpen) {
        this.toLink = [];
        this.linked = 0;
        return;
      }
      const id = this.toLink[this.linked++] as string;
      if (this.linked === this.toLink.length) {
        this.toLink = [];
        this.linked = 0;
      }
      try {
        if (this.library.sessions.session(id)) this.people.linkLiveNames(id);
      } catch (err) {
        this.log(`voices: linking the people named in live session ${id} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (++n % 32 === 0 && performance.now() >= until) return;
    }
  }

  private get people() {
    return this.library.voices.people;
  }

  list(): VoiceSummary[] {
    return this.people.list();
  }

  /**
   * Names a speaker of a recording; with `remember`, its turns' voiceprints join the voice of that name. The
   * name is kept even when the voice cannot be remembered (no speaker-embedding model, no audio): `note` says why.
   */
  async nameSpeaker(recordingId: string, speaker: string, name: string | null, remember: boolean): Promise<{ voiceId: string | null; note: string | null }> {
    this.library.edits.renameSpeaker(recordingId, speaker, name);
    if (!name || !remember) return { voiceId: null, note: null };
    try {
      return { voiceId: await this.remember(recordingId, speaker, name), note: null };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { voiceId: null, note: `${name} is named here, but the voice could not be remembered for other recordings: ${why}` };
    }
  }

  private async remember(recordingId: string, speaker: string, name: string): Promise<string> {
    const { transcriptId, turns } = await this.voices.turns(recordingId);
    const words = this.library.transcripts.words(transcriptId);
    const mine = turns.filter((t) => t.vector && words[t.firstWord]?.speaker === speaker);
    const model = turns[0]?.model ?? '';
    const voiceId = this.people.remember(
      recordingId,
      name,
      model,
      mine.map((t) => ({ vector: t.vector as Float32Array, ms: t.end - t.start })),
      speaker,
    );
    this.people.setMatch(recordingId, transcriptId, speaker, voiceId, 1);
    return voiceId;
  }

  /**
   * Gives the current transcript's unnamed speakers the names of the remembered voices they match at or above
   * the threshold (each voice to one speaker at most, the closest pairs first). Answers every match it holds.
   */
  async match(recordingId: string): Promise<VoiceMatch[]> {
    const t = this.library.transcripts.get(recordingId);
    if (!t.words.some((w) => w.speaker !== null) || this.people.list().length === 0) return this.people.matches(t.transcriptId);
    const { transcriptId, turns } = await this.voices.turns(recordingId);
    const known = this.people.known(turns[0]?.model ?? '');
    const named = new Set(t.speakers.filter((s) => s.name).map((s) => s.id));
    const bySpeaker = new Map<string, Float32Array[]>();
    for (const turn of turns) {
      const s = t.words[turn.firstWord]?.speaker;
      if (!s || !turn.vector || named.has(s)) continue;
      bySpeaker.set(s, [...(bySpeaker.get(s) ?? []), turn.vector]);
    }
    const threshold = this.settings.get().voiceMatch ?? DEFAULT_VOICE_MATCH;
    const pairs = [...bySpeaker].flatMap(([speaker, vs]) => {
      const c = centroid(vs);
      return known.map((k) => ({ speaker, voice: k, similarity: cosine(c, k.vector) }));
    });
    const usedSpeakers = new Set<string>();
    const usedVoices = new Set<string>();
    for (const p of pairs.filter((x) => x.similarity >= threshold).sort((a, b) => b.similarity - a.similarity)) {
      if (usedSpeakers.has(p.speaker) || usedVoices.has(p.voice.id)) continue;
      usedSpeakers.add(p.speaker);
      usedVoices.add(p.voice.id);
      this.people.setMatch(recordingId, transcriptId, p.speaker, p.voice.id, Math.round(p.similarity * 1000) / 1000);
    }
    return this.people.matches(transcriptId);
  }

  /**
   * After a job completes with speakers: fold phantom speakers (too little speech) into their nearest voice,
   * recognise remembered voices, and in a live session's recording letter the unknown voices first (as its live
   * captions did). Never fails the
   * job; a problem (no speaker-embedding model, say) is logged. afterJobDone answers when done.
   */
  afterJob(recordingId: string): void {
    void this.afterJobDone(recordingId);
  }

  afterJobDone(recordingId: string): Promise<void> {
    const t = this.library.transcripts.get(recordingId);
    // You and Others (a live session's two sources) are sources, not voices: nothing to fold there. A
    // session's recording transcribed again with speakers has voices like any file.
    const sources = new Set<string>(Object.values(sourceLabels));
    if (!t.words.some((w) => w.speaker !== null) || t.words.some((w) => w.speaker !== null && sources.has(w.speaker))) return Promise.resolve();
    return (async () => {
      await this.voices.foldPhantoms(recordingId);
      if (this.people.list().length > 0) await this.match(recordingId);
      // A live session transcribed again reads its unknown voices with the letters its live captions gave them.
      if (this.library.sessions.session(recordingId)) this.voices.unnamedFirst(recordingId);
    })().catch((err: unknown) => this.log(`voices: reading the voices of ${recordingId} failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Every remembered voice as the local engine names it in live captions (its centroid print), and the match threshold. */
  forLiveCaptions(): { threshold: number; voices: { name: string; model: string; vector: Float32Array }[] } {
    const all = this.people.models().flatMap((model) => this.people.known(model).map((k) => ({ name: k.name, model, vector: k.vector })));
    // Only voices the engine takes go: one bad name (from an older library or a restored backup), a second
    // "Ökan" beside "ökan" or a print that is not numbers would otherwise make it refuse every voice.
    const keys = new Set<string>();
    const dims = new Map<string, number>();
    const voices = all.filter((v) => {
      const dim = dims.get(v.model) ?? v.vector.length;
      const why =
        checkVoiceName(v.name) ??
        (keys.has(voiceNameKey(v.name)) ? 'another voice has the same name' : null) ??
        printProblem(v.vector) ??
        (v.vector.length !== dim ? `its print has ${v.vector.length} values where the others of its model have ${dim}` : null);
      if (!why) dims.set(v.model, dim);
      if (why) this.log(`voices: ${JSON.stringify(v.name)} is not named in live captions: ${why}`);
      else keys.add(voiceNameKey(v.name));
      return why === null;
    });
    return { threshold: this.settings.get().voiceMatch ?? DEFAULT_VOICE_MATCH, voices };
  }

  matches(recordingId: string): VoiceMatch[] {
    return this.people.matches(this.library.transcripts.get(recordingId).transcriptId);
  }

  rename(id: string, name: string): void {
    this.people.rename(id, name);
  }

  merge(into: string, from: string): void {
    this.people.merge(into, from);
  }

  split(id: string, recordingId: string, name: string): { id: string } {
    return { id: this.people.split(id, recordingId, name) };
  }

  /**
   * Forgets a voice (its voiceprints, everywhere). With `unname`, the transcripts that show its name first
   * read "Speaker A" (a letter) there instead, for a person who asks to be forgotten.
   */
  forget(id: string, unname = false): void {
    if (unname) for (const s of this.people.unname(id)) this.voices.reletter(s.recordingId, s.transcriptId, s.speaker);
    this.people.forget(id);
  }

  /**
   * Library search narrowed to what one person said ("what did Dana say about the budget"): the sentences of
   * the speakers recognised or named as that voice, in every recording (the library's search does the narrowing).
   */
  search(query: string, voiceId: string, limit = 50): SearchHit[] {
    return this.library.search.search(query, { limit, voiceId });
  }
}
