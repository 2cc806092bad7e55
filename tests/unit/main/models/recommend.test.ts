import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseLanguage, neededBytes, OfferState, recommend } from '../../../../src/main/services/models/recommend';
import { CATALOG, catalogEntry } from '../../../../src/shared/models';
import type { MachineProfile } from '../../../../src/shared/models/offer';

const GIB = 1024 ** 3;
const GB = 1e9;

/** A machine: memory in GiB as sold, cores, free disk in GB, language. */
const machine = (memory: number, cores: number, diskGb: number | null, language = 'en'): MachineProfile => ({
  memoryBytes: Math.round(memory * GIB),
  cores,
  freeDiskBytes: diskGb === null ? null : Math.round(diskGb * GB),
  language,
});

describe('the first-run recommendation, over machine profiles', () => {
  it.each([
    ['a 16 GB, 8-core laptop', machine(16, 8, 200), 'parakeet-tdt-0.6b-v2'],
    ['an "8 GB" laptop that reports 7.7 GiB, 4 cores', machine(7.7, 4, 50), 'parakeet-tdt-0.6b-v2'],
    ['8 GB but only 2 cores', machine(8, 2, 50), 'moonshine-base-en'],
    ['a 4 GB, 4-core machine', machine(4, 4, 50), 'moonshine-base-en'],
    ['a 2 GB machine', machine(2, 2, 50), 'moonshine-tiny-en'],
  ])('English on %s: %s', (_what, profile, id) => {
    expect(recommend(profile, CATALOG).id).toBe(id);
  });

  it('says why in words a user reads, naming the machine', () => {
    const r = recommend(machine(16, 8, 200), CATALOG);
    expect(r.reason).toMatch(/^Parakeet TDT 0\.6B v2 \(int8\): the most accurate English model, which 16 GB of memory and 8 cores run well\.$/);
  });

  it('picks Parakeet v3 for a European language on a large machine, Whisper base on a small one', () => {
    expect(recommend(machine(16, 8, 200, 'de'), CATALOG).id).toBe('parakeet-tdt-0.6b-v3');
    expect(recommend(machine(16, 8, 200, 'pl'), CATALOG).id).toBe('parakeet-tdt-0.6b-v3');
    expect(recommend(machine(4, 2, 200, 'de'), CATALOG).id).toBe('whisper-base');
    // Japanese is not among Parakeet v3's languages; Whisper base knows it.
    expect(recommend(machine(16, 8, 200, 'ja'), CATALOG).id).toBe('whisper-base');
  });

  it('offers nothing for a language no model transcribes, and says so', () => {
    const r = recommend(machine(16, 8, 200, 'jv'), CATALOG);
    expect(r.id).toBeNull();
    expect(r.reason).toContain('(jv)');
  });

  it('steps down to a model the free disk can hold, and offers none when even the smallest does not fit', () => {
    const parakeet = neededBytes(catalogEntry('parakeet-tdt-0.6b-v2')!);
    const base = neededBytes(catalogEntry('moonshine-base-en')!);
    const tiny = neededBytes(catalogEntry('moonshine-tiny-en')!);
    const justUnder = (n: number) => (n - 1) / GB;
    expect(recommend(machine(16, 8, parakeet / GB), CATALOG).id).toBe('parakeet-tdt-0.6b-v2');
    expect(recommend(machine(16, 8, justUnder(parakeet)), CATALOG)).toMatchObject({ id: 'moonshine-base-en', reason: /fits the free disk space/ });
    expect(recommend(machine(16, 8, justUnder(base)), CATALOG).id).toBe('moonshine-tiny-en');
    const none = recommend(machine(16, 8, justUnder(tiny)), CATALOG);
    expect(none.id).toBeNull();
    expect(none.reason).toMatch(/free; Moonshine tiny .* needs/);
    // Free space that cannot be read does not hold the offer back.
    expect(recommend(machine(16, 8, null), CATALOG).id).toBe('parakeet-tdt-0.6b-v2');
  });

  it('every model it can offer is in the catalog, for files, in the language it is offered for', () => {
    for (const language of ['en', 'de', 'fr', 'es', 'ja'])
      for (const profile of [machine(16, 8, 500, language), machine(4, 2, 500, language), machine(2, 1, 500, language)]) {
        const { id } = recommend(profile, CATALOG);
        if (id === null) continue;
        const entry = catalogEntry(id)!;
        expect(entry.task).toBe('files');
        expect(entry.languages).toContain(language);
      }
  });
});

describe('the language a model is chosen for', () => {
  it('takes the language setting when it is not English, else the locale', () => {
    expect(chooseLanguage('de', 'en-US')).toBe('de');
    expect(chooseLanguage('en_us', 'fr-FR')).toBe('fr');
    expect(chooseLanguage('en_us', 'en-GB')).toBe('en');
    expect(chooseLanguage(undefined, undefined)).toBe('en');
    expect(chooseLanguage('en_us', 'C')).toBe('en');
  });
});

describe('the offer remembered', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('keeps "Not now" and a taken offer across starts, and starts empty from a broken file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-offer-'));
    dirs.push(dir);
    const a = new OfferState(join(dir, 'models'));
    expect(a.get()).toEqual({ dismissed: false, accepted: null });
    await a.set({ dismissed: true });
    await a.set({ accepted: 'moonshine-base-en' });
    expect(JSON.parse(readFileSync(join(dir, 'models', '.verbatim-offer.json'), 'utf8'))).toEqual({ dismissed: true, accepted: 'moonshine-base-en' });
    expect(new OfferState(join(dir, 'models')).get()).toEqual({ dismissed: true, accepted: 'moonshine-base-en' });
  });
});
