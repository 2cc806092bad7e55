/**
 * Hostile inputs against host mode's library (issue 26, items 1–7 and 13),
 * through the bridge of a real `npm run serve` process: backup folders with
 * links, FIFOs, hard links, sparse files, damaged and huge manifests and
 * 50,000 recordings; subtitle imports at and over the cue limit, with
 * 10 MB lines and out-of-range cues; edits at the contract's limit (each a small command, a big
 * file's text sent by its upload, never over the bridge) and file references not ours; and
 * jobs.addFiles with server paths. The host's event loop is measured inside
 * it (support/loop-probe.mjs) and its memory from /proc; the figures are
 * printed, and the assertions are what holds on a loaded machine too.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { launchHost, rssAtMostMiB, rssMiB, settledRssMiB, type Child } from './support/processes';
import { finalLoop, loopProbeEnv, resetLoop } from './support/loop';
import { srtOf } from '../support/srt';

let dir: string;
let probe: string;
let host: Child & { token: string };
let socket: WebSocket;
const figures = {
  inputs: 0,
  internal: [] as string[],
  rssBefore: 0,
  rssPeak: 0,
  rssAfter: 0,
  sparseCopyKiB: 0,
  bigImportMs: 0,
  shiftAllRequestBytes: 0,
  /** The largest subtitles.* request the 200,000-cue phase sent. */
  requestBytesMax: 0,
};
const SECRET = 'TOP-SECRET-OUTSIDE-THE-BACKUP';

let nextId = 1;
/** Whether call() counts the subtitles requests' sizes (the 200,000-cue phase). */
let countRequests = false;
/** One bridge call: its output, or its error (code and message). */
async function call(channel: string, input?: unknown, ms = 120_000): Promise<{ output?: Record<string, unknown>; error?: { code: string; message: string } }> {
  figures.inputs++;
  const id = nextId++;
  const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${channel} did not answer in ${ms} ms`)), ms);
    const on = (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as Record<string, unknown>;
      if (m.id === id) {
        clearTimeout(timer);
        socket.off('message', on);
        resolve(m);
      }
    };
    socket.on('message', on);
    const text = JSON.stringify({ id, channel, input });
    if (channel.startsWith('subtitles.') && countRequests) figures.requestBytesMax = Math.max(figures.requestBytesMax, Buffer.byteLength(text));
    socket.send(text);
  });
  const error = reply.error as { code: string; message: string } | undefined;
  if (error?.code === 'internal') figures.internal.push(`${channel}: ${error.message}`);
  figures.rssPeak = Math.max(figures.rssPeak, rssMiB(host.proc.pid as number));
  return reply as { output?: Record<string, unknown>; error?: { code: string; message: string } };
}

/** A subtitle file's text POSTed to the host's /upload, as the page sends a big one; answers its upload id. */
async function upload(text: string, name = 'file.srt'): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${host.port}/upload?token=${host.token}&name=${encodeURIComponent(name)}`, { method: 'POST', body: text });
  expect(r.status).toBe(200);
  return ((await r.json()) as { uploadId: string }).uploadId;
}

const RID = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const TID = (i: number) => `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function recording(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: RID(i),
    title: `Backup ${i}`,
    source: 'b.wav',
    source_kind: 'file',
    status: 'completed',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

function transcript(i: number): Record<string, unknown> {
  return {
    id: TID(i),
    recording_id: RID(i),
    region: 'local',
    status: 'completed',
    text: 'hello',
    created_at: '2026-01-01T00:00:00.000Z',
    sentences: '[]',
    paragraphs: '[]',
  };
}

let backups = 0;
/** A backup folder: library.json (a value, or raw text) and audio files (contents, or a function that makes the entry). */
function backup(manifest: unknown, audio: Record<string, string | ((path: string) => void)> = {}): string {
  const b = join(dir, 'backups', `backup-${++backups}`);
  mkdirSync(join(b, 'audio'), { recursive: true });
  if (typeof manifest === 'string') writeFileSync(join(b, 'library.json'), manifest);
  else if (manifest !== undefined) writeFileSync(join(b, 'library.json'), JSON.stringify(manifest));
  for (const [name, v] of Object.entries(audio)) {
    if (typeof v === 'string') writeFileSync(join(b, 'audio', name), v);
    else v(join(b, 'audio', name));
  }
  return b;
}

const manifest = (tables: Record<string, unknown>) => ({ format: 'verbatim-library', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', tables });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-library-'));
  probe = join(dir, 'loop.json');
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  // Backups are read only under --folder (host mode); the secret and the paths the jobs test names lie outside it.
  mkdirSync(join(dir, 'backups'));
  host = await launchHost(dir, loopProbeEnv(probe), ['--folder', join(dir, 'backups')]);
  socket = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?token=${host.token}`);
  await new Promise((res, rej) => (socket.once('open', res), socket.once('error', rej)));
  // Warm the channels the inputs use, then measure from here.
  await call('library.list');
  await call('library.importAll', { dir: backup(manifest({ recordings: [recording(999_999)] })) });
  figures.rssBefore = await settledRssMiB(host.proc.pid as number, 10_000);
  await resetLoop(host.proc, probe);
});

/** Per test: the host's RSS and its longest event-loop stall while the test ran (then a fresh measurement), printed. */
const phases: { test: string; rssMiB: number; loopMaxMs: number; worstGapCpuMs: number }[] = [];
afterEach(async (ctx) => {
  const loop = await finalLoop(probe);
  // worstGapCpuMs: the host's own CPU time inside its longest gap (the rest of a gap is waiting for a core on a busy machine).
  phases.push({
    test: ctx.task.name.slice(0, 40),
    rssMiB: Math.round(rssMiB(host.proc.pid as number)),
    loopMaxMs: loop.maxMs,
    worstGapCpuMs: loop.worstGapCpuMs,
  });
  console.log(`hostile-library phase: ${JSON.stringify(phases.at(-1))}`);
  await resetLoop(host.proc, probe);
});

afterAll(async () => {
  socket?.close();
  await host?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('hostile backups (items 1–4)', { timeout: 300_000 }, () => {
  it('refuses links and anything not a regular file, at every level, and never copies what lies outside', async () => {
    const outside = join(dir, 'secret.txt');
    const audioCases: [string, (p: string) => void][] = [
      ['symlink to a file outside', (p) => symlinkSync(outside, p)],
      ['symlink to /etc/passwd', (p) => symlinkSync('/etc/passwd', p)],
      ['relative symlink out', (p) => symlinkSync('../../secret.txt', p)],
      ['dangling symlink', (p) => symlinkSync(join(dir, 'nothing-here'), p)],
      ['symlink loop', (p) => symlinkSync(p, p)],
      ['FIFO', (p) => execFileSync('mkfifo', [p])],
      ['folder', (p) => mkdirSync(p)],
      ['hard link to a file outside', (p) => linkSync(outside, p)],
    ];
    for (const [label, make] of audioCases) {
      for (const kind of ['original', 'redacted'] as const) {
        const i = 1000 + figures.inputs;
        const name = kind === 'original' ? `${RID(i)}.wav` : `${RID(i)}.redacted.wav`;
        const b = backup(
          manifest({ recordings: [recording(i, kind === 'original' ? { audio_file: name } : { redacted_audio_file: name })], transcripts: [transcript(i)] }),
          {
            [name]: make,
          },
        );
        const r = await call('library.importAll', { dir: b });
        expect(r.output, `${label}: ${JSON.stringify(r)}`).toMatchObject({ imported: 1 });
        expect((r.output!.notes as string[]).join(' '), label).toMatch(/was not imported/);
        const item = await call('library.mediaUrl', { id: RID(i), redacted: kind === 'redacted' });
        expect(item.output, `${label}: ${JSON.stringify(item)}`).toEqual({ url: null });
      }
    }
    // Nothing in the library's audio folder holds the secret.
    const audioDir = join(dir, 'data', 'audio');
    for (const f of readdirSync(audioDir)) expect(readFileSync(join(audioDir, f), 'utf8')).not.toContain(SECRET);

    // The audio folder or library.json as a link, a FIFO or a folder: the backup is refused at once.
    const i = 5000;
    const refusals: [string, string][] = [];
    const mk = (label: string, setup: (b: string) => void) => {
      const b = join(dir, 'backups', `refuse-${refusals.length}`);
      mkdirSync(b);
      setup(b);
      refusals.push([label, b]);
    };
    const good = JSON.stringify(manifest({ recordings: [recording(i, { audio_file: `${RID(i)}.wav` })] }));
    mk('audio/ is a symlink to a folder outside', (b) => {
      writeFileSync(join(b, 'library.json'), good);
      mkdirSync(join(dir, `outside-audio-${i}`));
      writeFileSync(join(dir, `outside-audio-${i}`, `${RID(i)}.wav`), SECRET);
      symlinkSync(join(dir, `outside-audio-${i}`), join(b, 'audio'));
    });
    mk('audio/ is a FIFO', (b) => (writeFileSync(join(b, 'library.json'), good), execFileSync('mkfifo', [join(b, 'audio')])));
    mk('audio/ is a file', (b) => (writeFileSync(join(b, 'library.json'), good), writeFileSync(join(b, 'audio'), 'x')));
    mk('library.json is a FIFO', (b) => execFileSync('mkfifo', [join(b, 'library.json')]));
    mk('library.json is a symlink', (b) => (writeFileSync(join(dir, `lj-${i}`), good), symlinkSync(join(dir, `lj-${i}`), join(b, 'library.json'))));
    mk('library.json is a folder', (b) => mkdirSync(join(b, 'library.json')));
    mk('library.json is a symlink to /dev/zero', (b) => symlinkSync('/dev/zero', join(b, 'library.json')));
    mk('library.json is a hard link', (b) => (writeFileSync(join(dir, `hl-${i}`), good), linkSync(join(dir, `hl-${i}`), join(b, 'library.json'))));
    mk('no library.json', () => undefined);
    for (const [label, b] of refusals) {
      const r = await call('library.importAll', { dir: b });
      expect(r.error?.code, `${label}: ${JSON.stringify(r)}`).toBe('file_unreadable');
    }
    expect((await call('library.get', { id: RID(i) })).error?.code).toBe('not_found');
  });

  it('reads damaged and oversized manifests as a stream: every one answers, what is skipped is reported', async () => {
    const ok = (i: number) => JSON.stringify(recording(i));
    const texts = [
      '',
      ' ',
      'null',
      '[]',
      '{}',
      '{"format":"verbatim-library"}',
      '{"format":"verbatim-library","tables":7}',
      '{"format":"verbatim-library","tables":[]}',
      '{"tables":{"recordings":[' + ok(1) + ']},"format":"verbatim-library"}',
      '{"format":"not-verbatim","tables":{"recordings":[' + ok(1) + ']}}',
      '{"format":{"format":"verbatim-library"},"tables":{}}',
      '\uFEFF{"format":"verbatim-library","tables":{"recordings":[]}}',
      '{"format":"verbatim-library","tables":{"recordings":[1,"x",null,[],[[]],true]}}',
      '{"format":"verbatim-library","tables":{"recordings":[' + ok(7001) + ',',
      '{"format":"verbatim-library","tables":{"recordings":[{"id":"x","title":"\\u',
      '{"format":"verbatim-library","tables":{"recordings":[{"id":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}]}}',
      '{"format":"verbatim-library","tables":{"recordings":[{"id":"' + 'x'.repeat(17 * 1024 * 1024) + '"}]}}',
      '{"format":"verbatim-library","tables":{"DROP TABLE recordings":[{"id":1}],"recordings":[' + ok(7002) + ']}}',
      '{"format":"verbatim-library","tables":{"recordings":[' + ok(7003) + '],"recordings":[' + ok(7003) + ']}}',
      '{"format":"verbatim-library","tables":{"recordings":[{"id":"' + RID(7004) + '","title":{"base64":"AAAA"}}]}}',
      Buffer.from([0x7b, 0xff, 0xfe, 0x22]).toString('latin1'),
      '{"format":"verbatim-library","tables":{"recordings":[' + ok(7005) + ']}}   trailing garbage {{{{',
      '{"format":"verbatim-library","tables":{"recordings":[' + ok(7006) + ']}}{"format":"verbatim-library","tables":{"recordings":[' + ok(7007) + ']}}',
    ];
    for (const t of texts) {
      const r = await call('library.importAll', { dir: backup(t) });
      expect(r.output ?? r.error, t.slice(0, 80)).toBeDefined();
      if (r.error) expect(['file_unreadable', 'bad_request'], `${t.slice(0, 80)}: ${r.error.message}`).toContain(r.error.code);
    }
    // More recordings than one import takes: refused with the limit named.
    const many = Array.from({ length: 100_001 }, (_, i) => `{"id":"r${i}"}`).join(',');
    const r = await call('library.importAll', { dir: backup(`{"format":"verbatim-library","tables":{"recordings":[${many}]}}`) });
    expect(r.error?.message).toMatch(/more than 100,000 recordings/);
    // A 250 MB manifest (one recording and a quarter-gigabyte of rows that are not for this library): streamed, memory flat.
    const b = backup(undefined);
    const file = join(b, 'library.json');
    const pad = `{"recording_id":"nobody","tag":"${'p'.repeat(1000)}"},`;
    const chunk = pad.repeat(1000);
    writeFileSync(file, `{"format":"verbatim-library","tables":{"recordings":[${ok(7100)}],"tags":[`);
    for (let n = 0; n < 250; n++) writeFileSync(file, chunk, { flag: 'a' });
    writeFileSync(file, `{"recording_id":"nobody","tag":"end"}]}}`, { flag: 'a' });
    const big = await call('library.importAll', { dir: b }, 280_000);
    expect(big.output).toMatchObject({ imported: 1 });
    rmSync(b, { recursive: true });
  });

  it('imports 50,000 recordings in batches (progress events, memory flat) and a 2 GB sparse file as holes', async () => {
    const progress: number[] = [];
    const onProgress = (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as { event?: string; payload?: { done: number } };
      if (m.event === 'library.importProgress' && m.payload) progress.push(m.payload.done);
    };
    socket.on('message', onProgress);
    const rows = Array.from({ length: 50_000 }, (_, i) => recording(100_000 + i));
    const b = backup(manifest({ recordings: rows }));
    const t0 = Date.now();
    const r = await call('library.importAll', { dir: b }, 280_000);
    figures.bigImportMs = Date.now() - t0;
    socket.off('message', onProgress);
    expect(r.output).toMatchObject({ imported: 50_000, skipped: 0 });
    expect(progress.length).toBeGreaterThan(1);

    const i = 200_000;
    const name = `${RID(i)}.wav`;
    const sparse = backup(manifest({ recordings: [recording(i, { audio_file: name })] }), {
      [name]: (p) => truncateSync((writeFileSync(p, 'RIFF'), p), 2 * 1024 ** 3),
    });
    const s = await call('library.importAll', { dir: sparse }, 280_000);
    expect(s.output).toMatchObject({ imported: 1 });
    const copy = statSync(join(dir, 'data', 'audio', name));
    figures.sparseCopyKiB = (copy.blocks * 512) / 1024;
    expect(copy.size).toBe(2 * 1024 ** 3);
    expect(figures.sparseCopyKiB).toBeLessThan(64 * 1024);
  });

  it('cancels an import part-way: what it added is removed', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => recording(300_000 + i));
    const b = backup(manifest({ recordings: rows }));
    const before = (await call('library.list', { limit: 1 })).output as { total: number };
    let sent = false;
    const onProgress = (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as { event?: string };
      if (m.event === 'library.importProgress' && !sent) {
        sent = true;
        socket.send(JSON.stringify({ id: nextId++, channel: 'library.importCancel' }));
      }
    };
    socket.on('message', onProgress);
    const r = await call('library.importAll', { dir: b }, 280_000);
    socket.off('message', onProgress);
    // Canceled, or finished before the cancel arrived on a fast machine: either way the library is consistent.
    const after = (await call('library.list', { limit: 1 })).output as { total: number };
    if (r.error) {
      expect(r.error.code).toBe('canceled');
      expect(after.total).toBe(before.total);
    } else expect(after.total).toBe(before.total + 20_000);
  });
});

describe('hostile subtitles (items 5–7)', { timeout: 300_000 }, () => {
  it('imports, opens, replaces and shifts at the contract limit of 200,000 cues (each edit a small command), and refuses one more with a clear message', async () => {
    // The file's 8 MB go by /upload; the request names the upload (main never parses the text on its event loop).
    countRequests = true;
    const at = await call('subtitles.importNew', { name: 'limit.srt', file: { kind: 'upload', uploadId: await upload(srtOf(200_000, () => 'a')) } }, 280_000);
    expect(at.output, JSON.stringify(at.error)).toMatchObject({ cues: 200_000 });
    const big = at.output!.id as string;
    const opened = (await call('subtitles.open', { id: big }, 280_000)).output as { version: number; cues: { start: number[] } };
    expect(opened.cues.start).toHaveLength(200_000);
    // Shift-all on 200,000 cues: the request is the command, under 1 KB; main shifts its own cues.
    const view = { selection: [[0, 199_999]], caret: null, playheadMs: 0 };
    const shift = { id: 0, channel: 'subtitles.run', input: { id: big, version: opened.version, command: 'shiftAllLater', view } };
    figures.shiftAllRequestBytes = Buffer.byteLength(JSON.stringify(shift));
    expect(figures.shiftAllRequestBytes).toBeLessThan(1024);
    const shifted = await call('subtitles.run', shift.input, 280_000);
    expect(shifted.output, JSON.stringify(shifted.error)).toMatchObject({ version: opened.version + 1, digest: expect.stringMatching(/^200000:/) });
    const after = (await call('subtitles.open', { id: big }, 280_000)).output as { cues: { start: number[] }; undo: string[] };
    expect(after.cues.start[199_999]).toBe(199_999_100);
    expect(after.undo.at(-1)).toBe('Shift all later by 100 ms');
    // One cue replaced by 200,000 from an uploaded file (its old splice, 25 MiB, was over the bridge's 16 MiB limit; the text itself is 8 MB).
    const one = (await call('subtitles.importNew', { name: 'one.srt', content: srtOf(1) })).output!.id as string;
    const doc = (await call('subtitles.open', { id: one })).output as { version: number };
    const uploadId = await upload(srtOf(200_000, (i) => `replaced ${i}`));
    const replace = await call(
      'subtitles.run',
      {
        id: one,
        version: doc.version,
        command: 'replaceFrom',
        args: { file: { kind: 'upload', uploadId }, name: 'replace.srt' },
        view: { selection: [], caret: null, playheadMs: 0 },
      },
      280_000,
    );
    countRequests = false;
    expect(figures.requestBytesMax).toBeLessThan(1024);
    expect(replace.output, JSON.stringify(replace.error)).toMatchObject({ version: doc.version + 1, digest: expect.stringMatching(/^200000:/) });
    expect(((await call('subtitles.open', { id: one }, 280_000)).output as { cues: { text: string[] } }).cues.text[199_999]).toBe('replaced 199999');
    // Undone in main (a 200,000-cue splice that never crosses): the one cue is back.
    const undone = await call('subtitles.undo', { id: one, version: doc.version + 1 }, 280_000);
    expect(undone.output).toMatchObject({ label: 'Import replace.srt', digest: expect.stringMatching(/^1:/) });
    const over = await call('subtitles.importNew', { name: 'over.srt', file: { kind: 'upload', uploadId: await upload(srtOf(200_001, () => 'a')) } }, 280_000);
    expect(over.error?.code).toBe('bad_request');
    expect(over.error?.message).toMatch(/200,000/);
  });

  it('fits long cues, far times and 10 MB lines at the door; every item then opens', async () => {
    const cases: [string, string][] = [
      ['a 2,001-character cue', srtOf(3, (i) => (i === 1 ? 'x'.repeat(2001) : 'ok'))],
      ['a 100,000-character cue over lines', srtOf(2, () => Array.from({ length: 100 }, () => 'y'.repeat(1000)).join('\n'))],
      [
        'a cue at 999 h',
        srtOf(
          3,
          () => 'far',
          (i) => (i === 2 ? 999 * 3_600_000 : i * 1000),
        ),
      ],
      [
        'a cue ending past 100 h',
        srtOf(
          2,
          () => 'edge',
          (i) => (i === 1 ? 100 * 3_600_000 - 100 : 0),
        ),
      ],
      ['a 10 MB single line (5 M words)', `1\n00:00:01,000 --> 00:00:05,000\n${'w '.repeat(5_000_000)}\n`],
      ['a 10 MB line with no spaces', `1\n00:00:01,000 --> 00:00:05,000\n${'z'.repeat(10_000_000)}\n`],
      ['a 10 MB timing line', `1\n00:00:01,000 --> 00:00:05,000${' '.repeat(10_000_000)}\nok\n`],
      ['a 10 MB WebVTT header', `WEBVTT\n\nNOTE ${'n'.repeat(10_000_000)}\n\n00:00:01.000 --> 00:00:02.000\nok\n`],
      ['a 10 MB cue identifier', `WEBVTT\n\n${'i'.repeat(10_000_000)}\n00:00:01.000 --> 00:00:02.000\nok\n`],
      ['a 1 MB cue setting', `WEBVTT\n\n00:00:01.000 --> 00:00:02.000 ${'align:start '.repeat(100_000)}\nok\n`],
    ];
    for (let n = 1; n <= 20; n++) cases.push([`cue of ${n * 150} characters ×40`, srtOf(40, () => 'c'.repeat(n * 150))]);
    for (const h of [99, 100, 101, 500, 999])
      cases.push([
        `cue at ${h} h`,
        srtOf(
          2,
          () => 't',
          (i) => (i ? h * 3_600_000 : 0),
        ),
      ]);
    for (const [label, content] of cases) {
      // Over the inline limit, a file's text goes as an upload, as the page sends it.
      const text = content.length > 2_000_000 ? { file: { kind: 'upload', uploadId: await upload(content) } } : { content };
      const r = await call('subtitles.importNew', { name: `${label}.srt`, ...text }, 120_000);
      if (r.error) {
        expect(r.error.code, `${label}: ${r.error.message}`).toBe('bad_request');
        continue;
      }
      const id = r.output!.id as string;
      const open = await call('subtitles.open', { id });
      expect(open.output, `${label}: ${JSON.stringify(open.error)}`).toBeDefined();
      const get = await call('library.get', { id });
      expect(get.output, `${label}: ${JSON.stringify(get.error)}`).toBeDefined();
    }
  });
});

describe('subtitle files by reference', () => {
  it('reads only uploads this host staged, each once, and never a path the browser did not pick; big text inline is refused', async () => {
    const one = (await call('subtitles.importNew', { name: 'ref.srt', content: srtOf(2) })).output!.id as string;
    const doc = (await call('subtitles.open', { id: one })).output as { version: number };
    const view = { selection: [], caret: null, playheadMs: 0 };
    const replaceFrom = (file: unknown) =>
      call('subtitles.run', { id: one, version: doc.version, command: 'replaceFrom', args: { file, name: 'x.srt' }, view });
    const importNew = (input: Record<string, unknown>) => call('subtitles.importNew', { name: 'x.srt', ...input });
    const refused: [string, Awaited<ReturnType<typeof call>>, string, RegExp][] = [
      ['an upload id never issued', await replaceFrom({ kind: 'upload', uploadId: 'no-such-upload-123' }), 'not_found', /gone.*Choose the file again/],
      ['a path as upload id', await replaceFrom({ kind: 'upload', uploadId: '../../library.sqlite' }), 'bad_request', /uploadId/],
      ['the database by upload id', await replaceFrom({ kind: 'upload', uploadId: '..%2Flibrary.db' }), 'bad_request', /uploadId/],
      ['a file outside, by path', await replaceFrom({ kind: 'path', path: join(dir, 'secret.txt') }), 'forbidden', /picked or dropped/],
      ['/etc/passwd by path', await importNew({ file: { kind: 'path', path: '/etc/passwd' } }), 'forbidden', /picked or dropped/],
      ['both a file and its text', await importNew({ content: srtOf(1), file: { kind: 'upload', uploadId: 'abcdefgh1234' } }), 'bad_request', /one of the two/],
      ['neither', await importNew({}), 'bad_request', /one of the two/],
      ['2,000,001 characters inline', await importNew({ content: 'x'.repeat(2_000_001) }), 'bad_request', /sent as a file/],
    ];
    for (const [label, r, code, message] of refused) {
      expect(r.error?.code, `${label}: ${JSON.stringify(r)}`).toBe(code);
      expect(r.error?.message, label).toMatch(message);
    }
    // An upload is read once: the import takes it, and naming it again finds it gone.
    const uploadId = await upload(srtOf(3), 'three.srt');
    expect((await importNew({ file: { kind: 'upload', uploadId } })).output).toMatchObject({ cues: 3 });
    expect((await importNew({ file: { kind: 'upload', uploadId } })).error?.code).toBe('not_found');
    expect(readdirSync(join(dir, 'data', 'uploads'))).not.toContain(uploadId);
    // The document is as it was, and the host serves on.
    expect(((await call('subtitles.open', { id: one })).output as { version: number }).version).toBe(doc.version);
  });
});

describe('hostile jobs.addFiles in host mode (item 13)', () => {
  it('refuses every server path the browser did not upload', async () => {
    const paths = [
      join(dir, 'secret.txt'),
      '/etc/passwd',
      '/dev/zero',
      '/proc/self/environ',
      join(dir, 'data', 'library.db'),
      '../../etc/passwd',
      'relative.wav',
      '/',
      '\u0000',
    ];
    for (const p of paths) {
      const r = await call('jobs.addFiles', { files: [{ kind: 'path', path: p }] });
      expect(r.error?.code, `${p}: ${JSON.stringify(r)}`).toMatch(/forbidden|bad_request/);
    }
    const jobs = (await call('jobs.list')).output as { jobs: unknown[] };
    expect(jobs.jobs).toHaveLength(0);
  });
});

describe('the host at the end', () => {
  it('is alive, its memory back within 150 MiB of the start; its event loop figures printed', async () => {
    const info = await call('app.info');
    expect(info.output).toMatchObject({ mode: 'host' });
    expect(host.alive()).toBe(true);
    const loop = { maxMs: Math.max(...phases.map((p) => p.loopMaxMs)), phases };
    // Memory given back: a full collection in the host, then its RSS sampled until within 150 MiB of the start (or 30 s).
    await resetLoop(host.proc, probe);
    figures.rssAfter = await rssAtMostMiB(host.proc.pid as number, figures.rssBefore + 149);
    console.log(`hostile-library figures: ${JSON.stringify({ ...figures, loop })}`);
    expect(figures.internal).toEqual([]);
    expect(figures.inputs).toBeGreaterThanOrEqual(100);
    expect(figures.rssAfter - figures.rssBefore).toBeLessThan(150);
  });
});
