/**
 * One rule for a remembered voice's name (shared/voices/names.ts): People (rename, split, remember), the
 * engine's known voices, and what the app sends live captions. Unicode case folding, not SQLite's ASCII NOCASE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library, openDatabase } from '../../../src/main/services/library/library';
import type { EngineManager } from '../../../src/main/services/local-engine';
import { SettingsService } from '../../../src/main/services/settings';
import { PeopleService } from '../../../src/main/services/voices/people';
import { VoicesService } from '../../../src/main/services/voices/service';
import { peopleChannels } from '../../../src/shared/ipc/people';
import { checkVoiceName, voiceNameKey } from '../../../src/shared/voices/names';
import { KnownVoicesRequestSchema } from '../../../src/shared/voices/wire';
import { toBlob } from '../../../src/main/services/library/vectors';

describe('checkVoiceName and voiceNameKey', () => {
  it('refuses control characters, direction overrides, lone surrogates, empty and over-long names, with what to do', () => {
    expect(checkVoiceName('Dana')).toBeNull();
    expect(checkVoiceName('Zoë 👩‍💻')).toBeNull();
    expect(checkVoiceName('Dana\u0007')).toMatch(/control characters/);
    expect(checkVoiceName('Dana\u202Eevil')).toMatch(/text-direction/);
    expect(checkVoiceName('Dana\uD800')).toMatch(/control characters/);
    expect(checkVoiceName('')).toMatch(/Type a name/);
    expect(checkVoiceName(' Dana')).toMatch(/spaces/);
    expect(checkVoiceName('x'.repeat(81))).toMatch(/at most 80/);
  });

  it('folds case beyond ASCII: Ökan is ökan, STRASSE is straße, a decomposed Ö is a composed one', () => {
    expect(voiceNameKey('Ökan')).toBe(voiceNameKey('ökan'));
    expect(voiceNameKey('STRASSE')).toBe(voiceNameKey('straße'));
    expect(voiceNameKey('O\u0308kan')).toBe(voiceNameKey('Ökan'));
    expect(voiceNameKey('Dana')).not.toBe(voiceNameKey('Dan'));
  });

  it("the channels and the engine's known voices use the rule", () => {
    expect(peopleChannels['people.rename'].input.safeParse({ voiceId: 'v', name: 'Dana\u0007' }).success).toBe(false);
    expect(peopleChannels['people.rename'].input.parse({ voiceId: 'v', name: '  Dana ' }).name).toBe('Dana');
    const voice = (name: string) => ({ name, model: 'm', vector: [1, 0] });
    const r = KnownVoicesRequestSchema.safeParse({ threshold: 0.7, voices: [voice('Ökan'), voice('ökan')] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['voices', 1, 'name']);
    expect(KnownVoicesRequestSchema.safeParse({ threshold: 0.7, voices: [voice('Dana\u0007')] }).success).toBe(false);
  });
});

describe('People keep one voice per folded name', () => {
  let dir: string;
  let lib: Library;
  let db: ReturnType<typeof openDatabase>;
  let people: PeopleService;
  const logged: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'verbatim-voice-names-'));
    db = openDatabase(join(dir, 'library.sqlite'));
    lib = new Library(join(dir, 'lib'), db);
    const settings = new SettingsService({ read: () => null, write: () => undefined });
    const engine = { ensure: () => Promise.reject(new Error('no engine here')) } as unknown as EngineManager;
    people = new PeopleService(lib, new VoicesService(lib, lib.voices, engine), settings, (m) => logged.push(m));
  });
  afterEach(() => {
    lib.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rec = () =>
    lib.recordings.add({ title: 't', source: 't.wav', sourceKind: 'file', sizeBytes: 1, region: 'local', baseUrl: null, options: {} }).recordingId;
  const print = (v: number[]) => [{ vector: Float32Array.from(v), ms: 2000 }];

  it('ökan joins Ökan; renaming or splitting to a folded twin is a conflict; a bad name is refused', () => {
    const r1 = rec();
    const okan = lib.voices.people.remember(r1, 'Ökan', 'm', print([1, 0]), 'A');
    expect(lib.voices.people.remember(rec(), 'ökan', 'm', print([1, 0.1]), 'A')).toBe(okan);
    const dana = lib.voices.people.remember(rec(), 'Dana', 'm', print([0, 1]), 'B');
    expect(() => lib.voices.people.rename(dana, 'ÖKAN')).toThrow(/already a voice called ÖKAN/);
    expect(() => lib.voices.people.rename(dana, 'Dana\u0007')).toThrow(/control characters/);
    expect(() => lib.voices.people.remember(rec(), 'Sam\u001b[31m', 'm', print([0, 1]), 'A')).toThrow(/control characters/);
    expect(() => lib.voices.people.split(okan, r1, 'ökan')).toThrow(/already a voice called/);
    lib.voices.people.rename(dana, 'dana');
    expect(lib.voices.people.list().map((v) => v.name)).toEqual(['dana', 'Ökan']);
  });

  it('live captions get only the voices the engine takes: one bad name or a folded twin never drops the others', () => {
    const r = rec();
    lib.voices.people.remember(r, 'Dana', 'm', print([1, 0]), 'A');
    lib.voices.people.remember(r, 'Sam', 'm', print([0, 1]), 'B');
    // As an older library or a restored backup may hold them: written past the rule.
    const now = new Date().toISOString();
    const add = (id: string, name: string, v: number[]) => {
      db.prepare(`INSERT INTO voices (id, name, model, created_at, updated_at) VALUES (?, ?, 'm', ?, ?)`).run(id, name, now, now);
      db.prepare(`INSERT INTO voice_prints (voice_id, recording_id, speaker, ms, vector) VALUES (?, ?, 'C', 2000, ?)`).run(id, r, toBlob(Float32Array.from(v)));
    };
    add('bell', 'Dana\u0007', [0.5, 0.5]);
    add('twin', 'SAM', [0.4, 0.6]);
    const live = people.forLiveCaptions();
    expect(live.voices.map((v) => voiceNameKey(v.name)).sort()).toEqual(['dana', 'sam']);
    const body = { threshold: live.threshold, voices: live.voices.map((v) => ({ name: v.name, model: v.model, vector: Array.from(v.vector) })) };
    expect(KnownVoicesRequestSchema.safeParse(body).success).toBe(true);
    expect(logged.join('\n')).toMatch(/control characters/);
  });
});
