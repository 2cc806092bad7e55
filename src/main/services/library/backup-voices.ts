/**
 * Remembered voices in a backup. They identify people by their voice, so a backup carries them only when the
 * user ticked the box; restoring one brings back the voices that speak in the recordings it adds, checked
 * like every other row: ids, names and numbers in range, vectors whole float32 blobs, and only rows that hang
 * off a restored recording or transcript.
 */
import type { Database } from 'better-sqlite3';
import { checkVoiceName, voiceNameKey } from '../../../shared/voices/names';

/** Parents before children, after the recordings and transcripts they hang off. */
export const VOICE_TABLES = ['voices', 'voice_prints', 'voice_matches', 'turn_voices'] as const;
export type VoiceTable = (typeof VOICE_TABLES)[number];

/** Voices a backup may bring (a hostile one listing millions stops being read here). */
const MAX_VOICES = 10_000;
/** A voiceprint's bytes: float32s, at most 4,096 of them. */
const MAX_VECTOR_BYTES = 4 * 4096;

const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const int = (v: unknown, min = 0): v is number => Number.isInteger(v) && (v as number) >= min;

/** A name People would take (the one rule: shared/voices/names.ts), once trimmed. */
function isVoiceName(v: unknown): v is string {
  return typeof v === 'string' && checkVoiceName(v.trim()) === null;
}

/** A voiceprint row a restore takes: its speaker, time and a whole vector. */
const isPrint = (r: Record<string, unknown>): boolean => str(r.speaker, 40) && int(r.ms) && isVector(r.vector);

/** A `{base64}` blob as exportAll writes it that holds whole float32s, none of them NaN or infinite. */
function isVector(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const b64 = (v as { base64?: unknown }).base64;
  if (typeof b64 !== 'string' || b64.length > Math.ceil(MAX_VECTOR_BYTES / 3) * 4) return false;
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return false;
  for (let i = 0; i < bytes.length; i += 4) if (!Number.isFinite(bytes.readFloatLE(i))) return false;
  return true;
}

/**
 * One restore's view of the voices in a backup. Pass 1 shows it every voice row and which voices the new
 * recordings use (`learn`); `settle` decides, against this library, what each becomes; `keep` then admits
 * rows in pass 2. A voice whose name this library already remembers joins that voice (as People's merge
 * would) when both come from the same speaker model; with another model it stays out, and a note says why.
 */
export class VoiceRestore {
  private readonly found = new Map<string, { name: string; model: string }>();
  /** Voices with a voiceprint the restore takes (a voice is added only with one: never empty). */
  private readonly used = new Set<string>();
  /** Voices only matched in the new transcripts: they join one this library has, or stay out. */
  private readonly matched = new Set<string>();
  /** Backup voice id → the id its rows take here (its own, or the same-named voice's). */
  private readonly target = new Map<string, string>();
  /** Voices whose row is inserted (not joined to one this library has), with the name and model pass 1 read. */
  private readonly own = new Map<string, { name: string; model: string }>();
  readonly notes: string[] = [];

  constructor(private readonly db: Database) {}

  /** Pass 1: a row of a voice table; `freshRecording` and `freshTranscript` say whether the restore adds it. */
  learn(table: string, row: Record<string, unknown>, freshRecording: (id: string) => boolean, freshTranscript: (id: string) => boolean): void {
    if (table === 'voices') {
      if (this.found.size < MAX_VOICES && str(row.id, 200) && isVoiceName(row.name) && str(row.model, 200))
        this.found.set(row.id, { name: row.name.trim(), model: row.model });
    } else if (table === 'voice_prints' && typeof row.voice_id === 'string' && typeof row.recording_id === 'string') {
      // Checked here as pass 2 checks it: a voice whose every print is refused is not added, empty, to People.
      if (this.found.has(row.voice_id) && freshRecording(row.recording_id) && isPrint(row)) this.used.add(row.voice_id);
    } else if (table === 'voice_matches' && typeof row.voice_id === 'string' && typeof row.transcript_id === 'string') {
      if (this.found.has(row.voice_id) && freshTranscript(row.transcript_id)) this.matched.add(row.voice_id);
    }
  }

  /** After pass 1: what each used voice becomes here. */
  settle(): void {
    const byId = this.db.prepare(`SELECT id, model FROM voices WHERE id = ?`);
    // Names compared by voiceNameKey (Unicode case folding: "Ökan" is "ökan"), not SQLite's NOCASE (ASCII only).
    const byName = new Map<string, { id: string; model: string }>();
    for (const v of this.db.prepare(`SELECT id, name, model FROM voices`).all() as { id: string; name: string; model: string }[])
      byName.set(voiceNameKey(v.name), v);
    /** Names this restore inserts, lower-cased, with the backup id that takes them. */
    const taken = new Map<string, string>();
    for (const id of this.matched) {
      if (this.used.has(id)) continue;
      // Only matched: joins this library's voice of the same id and model, else its matches stay out.
      const here = byId.get(id) as { id: string; model: string } | undefined;
      if (here && here.model === this.found.get(id)!.model) this.target.set(id, here.id);
    }
    for (const id of this.used) {
      const v = this.found.get(id)!;
      const here = ((byId.get(id) as { id: string; model: string } | undefined) ?? byName.get(voiceNameKey(v.name))) as
        { id: string; model: string } | undefined;
      const sibling = taken.get(voiceNameKey(v.name));
      if (here && here.model === v.model) this.target.set(id, here.id);
      else if (here) this.notes.push(`${v.name}'s voice was not restored: this library remembers a voice of that name from another speaker model.`);
      else if (sibling && this.found.get(sibling)!.model === v.model) this.target.set(id, sibling);
      else if (sibling) this.notes.push(`A second voice called ${v.name} in the backup was not restored.`);
      else {
        taken.set(voiceNameKey(v.name), id);
        this.target.set(id, id);
        this.own.set(id, v);
      }
    }
    this.found.clear();
  }

  /** Pass 2's rule for each voice table; rows of a voice joined to another one are pointed at it. */
  rules(
    freshRecording: (id: string) => boolean,
    freshTranscript: (id: string) => boolean,
    wordsOf: (transcriptId: string) => number | undefined,
  ): Record<VoiceTable, (row: Record<string, unknown>) => boolean> {
    const voiceOf = (row: Record<string, unknown>): boolean => {
      const to = typeof row.voice_id === 'string' ? this.target.get(row.voice_id) : undefined;
      if (to === undefined) return false;
      row.voice_id = to;
      return true;
    };
    return {
      // Name and model as pass 1 checked them (the file is read twice; the second read is not trusted more).
      voices: (r) => {
        const v = typeof r.id === 'string' ? this.own.get(r.id) : undefined;
        if (!v || !str(r.created_at, 40) || !str(r.updated_at, 40)) return false;
        r.name = v.name;
        r.model = v.model;
        return true;
      },
      voice_prints: (r) => typeof r.recording_id === 'string' && freshRecording(r.recording_id) && isPrint(r) && voiceOf(r),
      voice_matches: (r) =>
        typeof r.transcript_id === 'string' &&
        freshTranscript(r.transcript_id) &&
        str(r.speaker, 40) &&
        typeof r.similarity === 'number' &&
        r.similarity >= -1 &&
        r.similarity <= 1 &&
        voiceOf(r),
      turn_voices: (r) =>
        typeof r.transcript_id === 'string' &&
        freshTranscript(r.transcript_id) &&
        int(r.idx) &&
        int(r.first_word) &&
        int(r.last_word) &&
        (r.first_word as number) <= (r.last_word as number) &&
        // A turn lies within its transcript's words (re-cluster reads them by these indices).
        (r.last_word as number) < (wordsOf(r.transcript_id) ?? 0) &&
        int(r.start_ms) &&
        int(r.end_ms) &&
        str(r.model, 200) &&
        (r.vector === null || isVector(r.vector)),
    };
  }
}
