/**
 * The app's backup over its IPC contract follows the user's setting: with "Include remembered voices" off (the
 * default) library.json holds no voice table and no voiceprint's bytes; ticked, it holds them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

let root: string;
let core: Core;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-backup-voices-'));
  core = createCore(createHostPlatform({ dataDir: join(root, 'data'), version: 't', keyFile: join(root, 'k') }), () => true, { resume: false });
});
afterAll(async () => {
  await core?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('library.exportAll and remembered voices', () => {
  it('leaves voiceprints out unless the setting is on', async () => {
    const words = 'the budget is fine'.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: 0.9, speaker: 'A' }));
    const { recordingId } = addCompleted(core.library, 'Weekly', words);
    const print = Float32Array.of(0.125, -0.75, 0.5);
    core.library.voices.people.remember(recordingId, 'Dana', 'm', [{ vector: print, ms: 1500 }], 'A');
    const bytes = Buffer.from(print.buffer).toString('base64');
    const read = (dir: string) => readFileSync(join(dir, 'library.json'), 'utf8');

    expect((await call(core.router, 'settings.get', undefined)).backupVoiceprints).toBeUndefined();
    await call(core.router, 'library.exportAll', { dir: join(root, 'off') });
    expect(read(join(root, 'off'))).not.toContain(bytes);
    expect(read(join(root, 'off'))).not.toContain('"voices"');

    await call(core.router, 'settings.set', { backupVoiceprints: true });
    await call(core.router, 'library.exportAll', { dir: join(root, 'on') });
    expect(read(join(root, 'on'))).toContain(bytes);
    expect(Object.keys((JSON.parse(read(join(root, 'on'))) as { tables: object }).tables)).toEqual(expect.arrayContaining(['voices', 'voice_prints']));
  });
});
