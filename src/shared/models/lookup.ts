/**
 * The whole downloadable catalog (speech, speakers, chat) and lookups by id
 * and task: data and types only, no schemas, so the renderer's first chunk
 * (lib/wordTimes.ts reads an entry) does not load zod (issue 29: cold start).
 */
import type { CatalogEntry, ModelTask } from './catalog';
import { CHAT_MODELS } from './chat';
import { SPEAKER_MODELS } from './speakers';
import { SPEECH_MODELS } from './speech';

/** Every downloadable model; ids are unique across the three lists (a unit test checks it). */
export const CATALOG: readonly CatalogEntry[] = [...SPEECH_MODELS, ...SPEAKER_MODELS, ...CHAT_MODELS];

const byId = new Map(CATALOG.map((entry) => [entry.id, entry]));

/** The catalog entry with this id, or undefined. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return byId.get(id);
}

/** The entries made for one task. */
export function catalogForTask(task: ModelTask): CatalogEntry[] {
  return CATALOG.filter((entry) => entry.task === task);
}
