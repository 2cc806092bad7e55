/**
 * What of a backup's rows may come in: the tables in the order they are
 * written and read, each table's rule for its rows (they must hang off a
 * restored recording or transcript, with JSON columns as the library writes
 * them), and the check of a transcript's words blob, unpacked within the size
 * its word count allows (a blob that inflates to 600 MB is refused after a
 * few kilobytes, not held in memory).
 */
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { builtInProfiles } from '../../../shared/subtitles/index';
import { editorCueSchema, rulesProfileSchema, spliceSchema } from '../../../shared/subtitles/schema';
import { CUE_LIMITS } from '../../../shared/subtitles/limits';
import { missedCitationSchema } from '../../../shared/captions-extras';
import { templateSectionSchema } from '../../../shared/templates';
import { VOICE_TABLES, type VoiceTable } from './backup-voices';

/** A row's id column as a string ('' for anything else: String() of a deeply nested array would overflow the stack). */
export const id = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Rows inserted per transaction, between turns of the event loop. */
export const BATCH = 500;

export type BackupTable = (typeof BACKUP_TABLES)[number] | VoiceTable;

/** The tables whose added rows the import journal notes (rows of the others hang off them and cascade). */
export const journalKinds: Partial<Record<string, 'chat' | 'recording' | 'profile' | 'voice'>> = {
  chats: 'chat',
  recordings: 'recording',
  subtitle_profiles: 'profile',
  voices: 'voice',
};

/** Which rows of each table come in: those hanging off a new recording or transcript, with JSON columns as the library writes them. */
export function keepRules(
  fresh: Set<string>,
  transcriptIds: Set<string>,
  chatOver: Map<string, boolean>,
  chatIds: Set<string>,
  wordsOf: ReadonlyMap<string, number>,
): Record<Exclude<BackupTable, VoiceTable>, (row: Record<string, unknown>) => boolean> {
  return {
    recordings: (r) => fresh.has(id(r.id)),
    transcripts: (r) => fresh.has(id(r.recording_id)) && transcriptIds.has(id(r.id)),
    // The words pass 1 checked, checked again (the file is read twice; the second read is not trusted more).
    words: (r) => transcriptIds.has(id(r.transcript_id)) && wordsCount(r) === wordsOf.get(id(r.transcript_id)),
    tags: (r) => fresh.has(id(r.recording_id)),
    speakers: (r) => transcriptIds.has(id(r.transcript_id)),
    cues: (r) => transcriptIds.has(id(r.transcript_id)) && isJson(r.data, z.array(editorCueSchema).max(CUE_LIMITS.cues)),
    // A chat over chosen recordings comes in only with one of them: a chat over nothing could not answer.
    chats: (r) => (r.scope === 'library' ? r.recording_id === null : chatOver.get(id(r.id)) === true),
    word_corrections: (r) => transcriptIds.has(id(r.transcript_id)) && wordIndex(r.word_index, wordsOf.get(id(r.transcript_id))),
    live_sessions: (r) => fresh.has(id(r.recording_id)) && transcriptIds.has(id(r.live_transcript_id)),
    subtitle_docs: (r) => transcriptIds.has(id(r.transcript_id)) && isJson(r.header, stringList) && isJson(r.trailer, stringList),
    subtitle_history: (r) => transcriptIds.has(id(r.transcript_id)) && isJson(r.splice, spliceSchema),
    // Profiles belong to no recording: one this library has (same id) or a built-in one is left as it is.
    subtitle_profiles: (r) => isJson(r.data, rulesProfileSchema) && !builtInProfiles.some((b) => b.id === r.id) && rulesProfileId(r.data) === r.id,
    waveform_peaks: (r) => fresh.has(id(r.recording_id)) && Number.isInteger(r.rate) && (r.rate as number) > 0 && (r.rate as number) <= 1000,
    chat_recordings: (r) => chatIds.has(id(r.chat_id)) && fresh.has(id(r.recording_id)),
    messages: (r) => chatIds.has(id(r.chat_id)),
    insights: (r) => transcriptIds.has(id(r.transcript_id)),
    review_accepted: (r) => transcriptIds.has(id(r.transcript_id)) && wordIndex(r.word_index, wordsOf.get(id(r.transcript_id))),
    speaker_notes: (r) => transcriptIds.has(id(r.transcript_id)),
    live_translations: (r) => fresh.has(id(r.recording_id)),
    live_summaries: (r) => fresh.has(id(r.recording_id)) && isJson(r.citations, z.array(missedCitationSchema)),
    // Templates belong to no recording: one this library has (same id) is left as it is.
    summary_templates: (r) =>
      typeof r.name === 'string' && r.name.trim() !== '' && r.name.length <= 80 && isJson(r.sections, templateSectionSchema.array().min(1).max(12)),
  };
}

export type SqlValue = string | number | bigint | Buffer | null;

/** Parents before children: a row's references exist when it is inserted. */
export const BACKUP_TABLES = [
  'recordings',
  'transcripts',
  'words',
  'word_corrections',
  'tags',
  'speakers',
  'cues',
  'live_sessions',
  'subtitle_docs',
  'subtitle_history',
  'subtitle_profiles',
  'waveform_peaks',
  'chats',
  'chat_recordings',
  'messages',
  'insights',
  'review_accepted',
  'speaker_notes',
  'live_translations',
  'live_summaries',
  'summary_templates',
  // Voiceprints (VOICE_TABLES) are left out unless the user asks for them: they identify people, and stay on this machine.
] as const;

/** Every table a backup may hold: with the voice tables last, after the recordings and transcripts they hang off. */
export const ALL_TABLES = [...BACKUP_TABLES, ...VOICE_TABLES] as const;

const stringList = z.array(z.string());

/** Whether a JSON text column holds what the library reads from it (a damaged one would break the view that opens it). */
function isJson(v: unknown, schema: z.ZodType): boolean {
  if (typeof v !== 'string') return false;
  try {
    return schema.safeParse(JSON.parse(v)).success;
  } catch {
    return false;
  }
}

function rulesProfileId(data: unknown): unknown {
  return (JSON.parse(String(data)) as { id?: unknown }).id;
}

/** A JSON value as SQLite takes it (Buffers travel as {base64}); undefined for anything else. */
export function sqlValue(v: unknown): SqlValue | undefined {
  if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object' && !Array.isArray(v) && typeof (v as { base64?: unknown }).base64 === 'string')
    return Buffer.from((v as { base64: string }).base64, 'base64');
  return undefined;
}

/** A word's index within a transcript of `count` words. */
export const wordIndex = (v: unknown, count: number | undefined): boolean =>
  count !== undefined && Number.isInteger(v) && (v as number) >= 0 && (v as number) < count;

/** The most words one transcript may hold (about 100 hours of speech). */
export const MAX_WORDS = 1_000_000;
/** Unpacked bytes a word may take on average in the stored columns (text, times, confidence, speaker as JSON). */
const BYTES_PER_WORD = 160;

/**
 * A `words` row's word count when its blob is what the library stores: gzip
 * of the word columns, each as long as the row's `count` says; null for
 * anything else. It is unpacked only as far as that count allows.
 */
export function wordsCount(row: Record<string, unknown>): number | null {
  const count = row.count;
  if (!Number.isInteger(count) || (count as number) < 0 || (count as number) > MAX_WORDS) return null;
  const blob = sqlValue(row.data);
  if (!Buffer.isBuffer(blob)) return null;
  let cols: unknown;
  try {
    cols = JSON.parse(gunzipSync(blob, { maxOutputLength: 1024 + (count as number) * BYTES_PER_WORD }).toString('utf8'));
  } catch {
    return null;
  }
  return wordColumns.safeParse(cols).success && (cols as { t: unknown[] }).t.length === count && sameLengths(cols as StoredColumns) ? (count as number) : null;
}

const wordColumns = z.object({
  t: z.array(z.string()),
  s: z.array(z.number()),
  e: z.array(z.number()),
  c: z.array(z.number()),
  p: z.array(z.string().nullable()).nullable(),
});
type StoredColumns = z.infer<typeof wordColumns>;
const sameLengths = (c: StoredColumns) =>
  c.s.length === c.t.length && c.e.length === c.t.length && c.c.length === c.t.length && (c.p === null || c.p.length === c.t.length);
