/**
 * The first-run offer: which downloadable speech model suits this computer
 * (memory, cores, free disk on the models folder, and the language the user
 * works in), and whether the user dismissed or took the offer, remembered in
 * `<models>/.verbatim-offer.json`.
 */
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { CatalogEntry } from '../../../shared/models/catalog';
import type { MachineProfile, ModelOffer } from '../../../shared/models/offer';
import { freeSpace, installedModels } from './install';
import { readSmallJsonSync } from './regular-file';
import { SmallJsonFile } from './small-json';

const GIB = 1024 ** 3;
/** A machine sold as "8 GB" reports a little under 8 GiB to the OS (firmware and graphics take their share), so the line sits below it. */
const LARGE_MEMORY = 7.5 * GIB;
/** Parakeet's published real-time factor is for 2 threads; with fewer than 4 cores the rest of the computer would wait on it. */
const LARGE_CORES = 4;
/** Below this a 250 MB model plus the app's own memory crowds the machine: the tiny model. */
const SMALL_MEMORY = 3.5 * GIB;
/** Room kept free beyond what the model needs (as the manager keeps). */
const MARGIN = 32 * 1024 * 1024;

/** Parakeet TDT v3's 25 European languages (its model card). */
export const PARAKEET_V3_LANGUAGES = [
  'bg', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'it',
  'lv', 'lt', 'mt', 'pl', 'pt', 'ro', 'sk', 'sl', 'es', 'sv', 'ru', 'uk',
]; // prettier-ignore

/** Disk a model needs while it installs: the archive, what it unpacks to, and a margin. */
export function neededBytes(entry: CatalogEntry): number {
  const unpacked = (entry as CatalogEntry & { unpackedBytes?: number }).unpackedBytes;
  // Without the unpacked size from upstream's listing, assume the manager's own estimate (1.2 × the archive).
  return entry.sizeBytes + (entry.format === 'tar.bz2' ? (unpacked ?? Math.ceil(entry.sizeBytes * 1.2)) : 0) + MARGIN;
}

/** 'de' from 'de-DE', 'de_de' or 'de'; 'en' for anything unreadable. */
export function languageOf(code: string | undefined | null): string {
  const m = /^([a-z]{2,3})(?:[-_]|$)/i.exec(code?.trim() ?? '');
  return m ? m[1]!.toLowerCase() : 'en';
}

/**
 * The language to choose for: the language setting when the user picked one
 * other than English (English is its default, so it says little), else the
 * system's locale.
 */
export function chooseLanguage(setting: string | undefined, locale: string | undefined): string {
  const fromSetting = languageOf(setting);
  return fromSetting !== 'en' ? fromSetting : languageOf(locale);
}

/** This computer's profile: memory and cores from the OS, free disk read by the caller. */
export function readProfile(freeDiskBytes: number | null, language: string): MachineProfile {
  return { memoryBytes: totalmem(), cores: availableParallelism(), freeDiskBytes, language };
}

const gb = (n: number) => `${(n / 1e9).toFixed(n >= 10e9 ? 0 : 1)} GB`;

/** The candidates, best first, for this machine's size and language. */
function candidates(p: MachineProfile): { ids: string[]; why: string } {
  const large = p.memoryBytes >= LARGE_MEMORY && p.cores >= LARGE_CORES;
  const small = p.memoryBytes < SMALL_MEMORY;
  // Memory is sold in GiB and called GB; disk space is counted in GB.
  const machine = `${Math.round(p.memoryBytes / GIB)} GB of memory and ${p.cores} cores`;
  if (p.language === 'en') {
    if (large)
      return { ids: ['parakeet-tdt-0.6b-v2', 'moonshine-base-en', 'moonshine-tiny-en'], why: `the most accurate English model, which ${machine} run well` };
    if (!small) return { ids: ['moonshine-base-en', 'moonshine-tiny-en'], why: `accurate English that stays quick on ${machine}` };
    return { ids: ['moonshine-tiny-en'], why: `the lightest English model, for ${machine}` };
  }
  const ids: string[] = [];
  if (PARAKEET_V3_LANGUAGES.includes(p.language) && large) ids.push('parakeet-tdt-0.6b-v3');
  ids.push('whisper-base');
  return { ids, why: large ? `accurate in your language on ${machine}` : `your language, sized for ${machine}` };
}

/** The model to offer this machine, from `catalog`; null with the reason when none fits. */
export function recommend(p: MachineProfile, catalog: readonly CatalogEntry[]): { id: string | null; reason: string } {
  const { ids, why } = candidates(p);
  const known = ids
    .map((id) => catalog.find((e) => e.id === id))
    .filter((e): e is CatalogEntry => e !== undefined && (e.task === 'files' || e.task === 'live') && e.languages.includes(p.language));
  if (known.length === 0) return { id: null, reason: `No downloadable model transcribes this language (${p.language}) yet.` };
  const fits = p.freeDiskBytes === null ? known[0] : known.find((e) => neededBytes(e) <= p.freeDiskBytes!);
  if (!fits) {
    const smallest = known.reduce((a, b) => (neededBytes(a) <= neededBytes(b) ? a : b));
    return {
      id: null,
      reason: `The disk holding the models has ${gb(p.freeDiskBytes ?? 0)} free; ${smallest.name} needs ${gb(neededBytes(smallest))} while it installs.`,
    };
  }
  const first = fits === known[0];
  return { id: fits.id, reason: first ? `${fits.name}: ${why}.` : `${fits.name}: the best model that fits the free disk space.` };
}

const fileSchema = z.object({ dismissed: z.boolean().catch(false), accepted: z.string().nullable().catch(null) });

/** Whether the offer was dismissed or taken, kept beside the models. */
export class OfferState {
  private state: z.infer<typeof fileSchema>;

  constructor(private readonly dir: string) {
    // None yet, or unreadable (or not a regular file): nothing was dismissed.
    const raw = readSmallJsonSync(this.path) ?? {};
    this.state = fileSchema.catch({ dismissed: false, accepted: null }).parse(raw);
  }

  private jsonFile: SmallJsonFile | null = null;

  /** One writer for the file, so its writes land in the order they were asked for. */
  private get file(): SmallJsonFile {
    return (this.jsonFile ??= new SmallJsonFile(this.path));
  }

  private get path(): string {
    return join(this.dir, '.verbatim-offer.json');
  }

  get(): { dismissed: boolean; accepted: string | null } {
    return { ...this.state };
  }

  set(patch: Partial<{ dismissed: boolean; accepted: string | null }>): Promise<void> {
    this.state = { ...this.state, ...patch };
    return this.file.write(this.state);
  }
}

/** The offer as the renderer sees it, for the models folder `dir` (its free disk, whether a speech model is installed there). */
export async function currentOffer(
  dir: string,
  catalog: readonly CatalogEntry[],
  state: OfferState,
  language: string,
  profile: (freeDiskBytes: number | null, language: string) => MachineProfile = readProfile,
): Promise<ModelOffer> {
  const p = profile(await freeSpace(dir), language);
  const hasSpeechModel = (await installedModels(dir)).some((m) => m.task === 'files' || m.task === 'live');
  const { id, reason } = recommend(p, catalog);
  return { id, reason, profile: p, hasSpeechModel, ...state.get() };
}
