/**
 * The `verbatim` command line as a user runs it: a subprocess (scripts/verbatim.mjs, the bundle of
 * src/main/cli) on generated speech, the real local engine (PocketSphinx, built in) and a real
 * library folder. Every wait is on the process ending or a line it prints.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { hasSpeechTools, makeSpeech } from '../fixtures/speech';
import { addCompleted } from '../support/library';

const bin = resolve('scripts/verbatim.mjs');
let dir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function verbatim(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, VERBATIM_KEY_DIR: join(dir, 'keys'), ASSEMBLYAI_API_KEY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => res({ code, stdout, stderr }));
  });
}

const speech = hasSpeechTools();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-cli-'));
  // Builds the bundles once (out/host), as the first `npx verbatim` in a clone does.
  const r = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function conversation(): Word[] {
  const out: Word[] = [];
  let t = 0;
  for (const [speaker, text] of [
    ['A', 'The budget is ready for review.'],
    ['B', 'I reviewed the budget yesterday.'],
    ['A', 'Then the budget goes out on Friday.'],
  ] as const) {
    for (const w of text.split(' ')) {
      out.push({ text: w, start: t, end: t + 300, confidence: 0.9, speaker });
      t += 350;
    }
    t += 2000;
  }
  return out;
}

describe('verbatim (command line)', () => {
  it('answers --help for itself and every command, and a wrong use with exit status 2', async () => {
    const top = await verbatim(['--help']);
    expect(top.code).toBe(0);
    for (const c of ['transcribe', 'search', 'export', 'models', 'mcp']) {
      expect(top.stdout).toContain(c);
      const r = await verbatim([c, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: verbatim ${c}`);
    }
    const unknown = await verbatim(['transcibe', 'x.wav']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no command “transcibe”');
    const badFormat = await verbatim(['transcribe', 'x.wav', '--format', 'pdf']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('“pdf” is not a format Verbatim writes');
  });

  it('lists the models: the built-in one and the catalog with what is installed', async () => {
    const r = await verbatim(['models', 'list', '--data', join(dir, 'models-data')]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows[0]).toEqual(['pocketsphinx', 'files', 'built in', 'PocketSphinx (built in, English)']);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.every((c) => c.length === 4 && c[2]!.length > 0)).toBe(true);
  });

  it('searches with --said-by, as text and as JSON, and refuses a library that is not there', async () => {
    const data = join(dir, 'search-data');
    const lib = new Library(data);
    const { recordingId } = addCompleted(lib, 'Budget: "Q3" review', conversation());
    lib.edits.renameSpeaker(recordingId, 'A', 'Ana');
    lib.edits.renameSpeaker(recordingId, 'B', 'Ben');
    lib.close();

    const all = await verbatim(['search', 'budget', '--data', data, '--json']);
    expect(all.code, all.stderr).toBe(0);
    expect((JSON.parse(all.stdout) as unknown[]).length).toBe(3);
    const ben = await verbatim(['search', 'budget', '--said-by', 'ben', '--data', data, '--json']);
    const hits = JSON.parse(ben.stdout) as { speaker: string; sentence: string; cite: string; link: string; startMs: number }[];
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ speaker: 'Ben', sentence: 'I reviewed the budget yesterday.' });
    expect(hits[0]!.cite).toBe('Budget: "Q3" review @ 00:04');
    expect(hits[0]!.link).toBe(`verbatim://recording/${recordingId}?t=4`);
    const text = await verbatim(['search', 'budget', '--said-by', 'Ana', '--data', data]);
    expect(text.stdout.trim().split('\n').sort()).toEqual([
      `Budget: "Q3" review @ 00:00\t${recordingId}\tAna: The budget is ready for review.`,
      `Budget: "Q3" review @ 00:07\t${recordingId}\tAna: Then the budget goes out on Friday.`,
    ]);

    const none = await verbatim(['search', 'budget', '--data', join(dir, 'nowhere')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('There is no Verbatim library in');

    const out = join(dir, 'exported');
    const exp = await verbatim(['export', '--all', '--format', 'md', '--out', out, '--data', data]);
    expect(exp.code, exp.stderr).toBe(0);
    const md = readFileSync(exp.stdout.trim(), 'utf8');
    expect(parse(/^---\n([\s\S]*?)\n---\n/.exec(md)![1]!)).toMatchObject({ title: 'Budget: "Q3" review', speakers: ['Ana', 'Ben'] });
    const badId = await verbatim(['export', 'no-such-id', '--format', 'txt', '--out', out, '--data', data]);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain('no-such-id');
  });

  it.runIf(speech)('transcribes a folder into the library and to SRT and Markdown; a non-audio file fails alone', { timeout: 300_000 }, async () => {
    const inbox = join(dir, 'inbox');
    mkdirSync(inbox);
    makeSpeech(inbox, 'fox', 'The quick brown fox jumps over the lazy dog.');
    makeSpeech(inbox, 'weather', 'The weather today is sunny with a light wind from the west.');
    const data = join(dir, 'data');
    const out = join(dir, 'out');
    const ok = await verbatim(['transcribe', inbox, '--format', 'srt', '--format', 'md', '--out', out, '--data', data]);
    expect(ok.code, ok.stderr).toBe(0);
    // Piped: plain progress lines on stderr, one result line per file on stdout.
    expect(ok.stderr).toMatch(/^fox\.wav: queued$/m);
    expect(ok.stderr).toMatch(/^fox\.wav: done \(/m);
    expect(ok.stdout.trim().split('\n')).toHaveLength(2);
    expect(readdirSync(out).sort()).toEqual(['fox.md', 'fox.srt', 'weather.md', 'weather.srt']);
    expect(readFileSync(join(out, 'fox.srt'), 'utf8')).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n.*fox/im);
    const md = readFileSync(join(out, 'weather.md'), 'utf8');
    const front = parse(/^---\n([\s\S]*?)\n---\n/.exec(md)![1]!) as Record<string, unknown>;
    expect(front).toMatchObject({ title: 'weather', source: 'weather.wav', model: 'pocketsphinx' });
    expect(md).toMatch(/\[00:00\]\(verbatim:\/\/recording\/[\w-]+\?t=0\) .*weather/i);

    writeFileSync(join(inbox, 'notes.wav'), 'not audio at all\n');
    makeSpeech(inbox, 'meeting', 'We will meet at the office on Monday morning.');
    const mixed = await verbatim(['transcribe', join(inbox, 'notes.wav'), join(inbox, 'meeting.wav'), '--data', data]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('notes.wav: failed: not an audio or video file Verbatim can read');
    expect(mixed.stderr).toMatch(/^meeting\.wav: done/m);
    const lib = new Library(data);
    try {
      expect(
        lib.recordings
          .list({ status: ['completed'] })
          .items.map((i) => i.title)
          .sort(),
      ).toEqual(['fox', 'meeting', 'weather']);
    } finally {
      lib.close();
    }

    const unknown = await verbatim(['transcribe', join(inbox, 'fox.wav'), '--model', 'no-such-model', '--data', data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no speech model called “no-such-model”');

    // The app holding the library's write lock past the wait (a restore writing): a clear "in use", nothing half done.
    const holder = new Database(join(data, 'library.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const busy = await verbatim(['transcribe', join(inbox, 'fox.wav'), '--data', data]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`The library in ${data} is in use`);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it.runIf(speech)('transcribes beside a running host-mode app that edits subtitles: nothing lost, integrity ok', { timeout: 300_000 }, async () => {
    const data = join(dir, 'shared-data');
    const seed = new Library(data);
    const { recordingId } = addCompleted(seed, 'Being edited', conversation());
    seed.close();
    const app = spawn(process.execPath, [join('out', 'host', 'cli.mjs'), '--port', '0', '--data', data], {
      env: { ...process.env, VERBATIM_KEY_DIR: join(dir, 'keys'), ASSEMBLYAI_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = new URL(
        await new Promise<string>((res, rej) => {
          createInterface({ input: app.stdout! }).on('line', (l) => {
            const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(l);
            if (m) res(m[1]!);
          });
          app.once('exit', (c) => rej(new Error(`host mode exited ${c}`)));
        }),
      );
      const { openBridge } = await import('./support/bridge');
      const bridge = await openBridge(Number(url.port), url.searchParams.get('token')!);
      const clip = join(dir, 'beside');
      mkdirSync(clip, { recursive: true });
      makeSpeech(clip, 'beside', 'The quick brown fox jumps over the lazy dog.');
      let cliDone = false;
      const cli = verbatim(['transcribe', join(clip, 'beside.wav'), '--data', data]).finally(() => (cliDone = true));
      // The app keeps committing subtitle edits for as long as the command line runs.
      let version = (await bridge.call<{ version: number }>('subtitles.open', { id: recordingId })).version;
      const first = version;
      let edits = 0;
      while (!cliDone || edits < 3) {
        const vtt = `WEBVTT\n\n00:00.000 --> 00:01.000\nEdit number ${edits + 1}\n`;
        const r = await bridge.call<{ version: number }>('subtitles.run', {
          id: recordingId,
          version,
          command: 'replaceFrom',
          args: { content: vtt, name: 'e.vtt' },
          view: { selection: [], caret: null, playheadMs: 0 },
        });
        version = r.version;
        edits++;
      }
      const run = await cli;
      expect(run.code, run.stderr).toBe(0);
      const doc = await bridge.call<{ version: number }>('subtitles.open', { id: recordingId });
      expect(doc.version - first).toBe(edits);
      const srt = await bridge.call<{ content: string }>('library.export', { id: recordingId, format: 'srt' });
      expect(srt.content.trim()).toBe(`1\n00:00:00,000 --> 00:00:01,000\nEdit number ${edits}`);
      const list = await bridge.call<{ items: { title: string; status: string }[] }>('library.list', {});
      expect(list.items.find((i) => i.title === 'beside')?.status).toBe('completed');
      // The app tells its window what the command line added (its check for other connections' commits).
      const added = run.stdout.split('\t')[0]!;
      await expect
        .poll(() => bridge.events.some((e) => e.event === 'library.changed' && (e.payload.ids as string[]).includes(added)), { timeout: 60_000 })
        .toBe(true);
      bridge.close();
    } finally {
      app.kill('SIGTERM');
      await new Promise((r) => (app.exitCode === null ? app.once('exit', r) : r(null)));
    }
    const db = new Database(join(data, 'library.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    expect(existsSync(join(data, 'engine-cli'))).toBe(true);
    expect(readdirSync(join(data, 'engine-cli'))).toEqual([]);
  });

  it.runIf(speech)(
    'transcribes and searches while the running app restores a backup: the restore whole, nothing lost, integrity ok',
    { timeout: 300_000 },
    async () => {
      // A backup of 300 transcripts, made by a library of its own.
      const source = new Library(join(dir, 'restore-source'));
      source.transaction(() => {
        for (let i = 0; i < 300; i++) addCompleted(source, `Restored ${i}`, conversation());
      });
      const backup = join(dir, 'restore-backup');
      await source.backup.exportAll(backup);
      source.close();
      const data = join(dir, 'restore-data');
      const app = spawn(process.execPath, [join('out', 'host', 'cli.mjs'), '--port', '0', '--data', data, '--folder', dir], {
        env: { ...process.env, VERBATIM_KEY_DIR: join(dir, 'keys'), ASSEMBLYAI_API_KEY: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const url = new URL(
          await new Promise<string>((res, rej) => {
            createInterface({ input: app.stdout! }).on('line', (l) => {
              const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(l);
              if (m) res(m[1]!);
            });
            app.once('exit', (c) => rej(new Error(`host mode exited ${c}`)));
          }),
        );
        const { openBridge } = await import('./support/bridge');
        const bridge = await openBridge(Number(url.port), url.searchParams.get('token')!);
        const clip = join(dir, 'during-restore');
        mkdirSync(clip, { recursive: true });
        makeSpeech(clip, 'during', 'The weather today is sunny with a light wind from the west.');
        const restore = bridge.call<{ imported: number; skipped: number }>('library.importAll', { dir: backup });
        // Once the restore is writing, the command line starts beside it (opening the library while the restore's journal is open).
        await expect.poll(() => bridge.events.some((e) => e.event === 'library.importProgress'), { timeout: 60_000 }).toBe(true);
        const [cli, search, restored] = await Promise.all([
          verbatim(['transcribe', join(clip, 'during.wav'), '--data', data]),
          verbatim(['search', 'budget', '--data', data, '--json', '--limit', '5']),
          restore,
        ]);
        expect(cli.code, cli.stderr).toBe(0);
        expect(search.code, search.stderr).toBe(0);
        expect(restored).toMatchObject({ imported: 300, skipped: 0 });
        bridge.close();
      } finally {
        app.kill('SIGTERM');
        await new Promise((r) => (app.exitCode === null ? app.once('exit', r) : r(null)));
      }
      const db = new Database(join(data, 'library.sqlite'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect((db.prepare(`SELECT count(*) AS n FROM recordings WHERE title LIKE 'Restored %'`).get() as { n: number }).n).toBe(300);
        expect((db.prepare(`SELECT count(*) AS n FROM recordings WHERE title = 'during'`).get() as { n: number }).n).toBe(1);
        expect((db.prepare(`SELECT count(*) AS n FROM import_journal`).get() as { n: number }).n).toBe(0);
      } finally {
        db.close();
      }
    },
  );
});
