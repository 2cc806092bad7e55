/**
 * What an AssemblyAI model id runs on this engine: the best installed local model for the task and the
 * language (PocketSphinx, null here, when none fits). "Best" is the lowest word error rate the catalog
 * publishes for the model (src/shared/models); an installed model the catalog does not know comes after
 * the ones it does. For live captions a true streaming model comes first, since it keeps up with speech.
 */
import type { ModelManifest } from '../../shared/models/catalog';
import { catalogEntry } from '../../shared/models/lookup';
import { whisperLanguage } from './whisper-languages';

const ENGLISH = /^en([_-](us|uk|au|gb))?$/i;

/** The lowest WER the catalog publishes for a model, or Infinity. */
function publishedWer(id: string): number {
  const wer = catalogEntry(id)?.wer ?? [];
  return wer.length ? Math.min(...wer.map((w) => w.value)) : Infinity;
}

/** Whether `m` transcribes `language` (an AssemblyAI code; 'auto' to detect; null for English). */
function speaks(m: ModelManifest, language: string | null): boolean {
  if (language === null || ENGLISH.test(language)) return m.languages.includes('en');
  const multi = m.family === 'whisper' && m.languages.length > 1;
  if (language === 'auto') return multi;
  const w = whisperLanguage(language.toLowerCase());
  return multi && w !== null && w !== '' && m.languages.includes(w);
}

/** The installed model a cloud id runs for `task` in `language`, or null for PocketSphinx. */
export function bestLocalModel(installed: readonly ModelManifest[], task: 'files' | 'live', language: string | null): ModelManifest | null {
  const fits = installed.filter((m) => (task === 'files' ? m.family !== 'streaming-transducer' : true) && speaks(m, language));
  const rank = (m: ModelManifest): [number, number] => [task === 'live' && m.family !== 'streaming-transducer' ? 1 : 0, publishedWer(m.id)];
  fits.sort((a, b) => {
    const [ra, wa] = rank(a);
    const [rb, wb] = rank(b);
    return ra - rb || wa - wb || a.id.localeCompare(b.id);
  });
  return fits[0] ?? null;
}
