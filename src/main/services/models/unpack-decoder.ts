/**
 * Turns a `.tar.bz2` into its tar stream off the main thread: the system's
 * `bzip2 -dc` in a child (Linux, macOS), else a libarchive `tar` that rewrites
 * the archive uncompressed to its stdout (Windows 10+ ships one as tar.exe),
 * else unbzip2-stream's decoder on a worker thread, paced so at most a few MiB
 * wait for the reader. The caller parses and checks the tar; this module only
 * decodes, and `stop()` ends the decoding at once (child killed, worker ended).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants, fstatSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

export type DecoderKind = 'bzip2' | 'bsdtar' | 'js';

export interface Decoder {
  kind: DecoderKind;
  /** The archive's size on disk. */
  bytes: number;
  /** The decoded tar bytes. */
  out: Readable;
  /** Settles when the decoding has finished: rejects with a DecodeError when the archive did not decode to its end. */
  done: Promise<void>;
  /** End the decoding now (the caller stopped reading); `done` then rejects, which the caller ignores. */
  stop(): void;
}

/** Why a decoder stopped: `truncated` when the compressed data ended early (an interrupted download). */
export class DecodeError extends Error {
  constructor(
    message: string,
    readonly truncated: boolean,
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}

/** Which decoders this machine has, found once per process (a missing program costs one failed spawn), with the program each runs. */
let available: Promise<Map<DecoderKind, string>> | null = null;

export function availableDecoders(): Promise<Map<DecoderKind, string>> {
  available ??= (async () => {
    const found = new Map<DecoderKind, string>();
    // libarchive first: it decodes and rewrites in one process at about bzip2's own speed (bench/models-unpack.ts:
    // 0.93× `bzip2 -dc`, where a bzip2 child piped into our reader took 1.4–1.9×). It reads any compression, so
    // openDecoder checks the bzip2 signature itself. GNU tar cannot rewrite an archive to stdout; libarchive's can.
    for (const cmd of ['bsdtar', 'tar'])
      if (!found.has('bsdtar') && (await runs(cmd, ['--version'], (out) => /bsdtar|libarchive/i.test(out)))) found.set('bsdtar', cmd);
    if (await runs('bzip2', ['--help'], () => true)) found.set('bzip2', 'bzip2');
    found.set('js', '');
    return found;
  })();
  return available;
}

const ARGS: Record<Exclude<DecoderKind, 'js'>, string[]> = {
  bzip2: ['-dc'],
  // -P: names go on exactly as stored (no leading / or ../ stripped), so the caller's checks see what the archive holds.
  bsdtar: ['-c', '-P', '-f', '-', '@-'],
};

/** Whether `cmd` starts and `accept`s what it prints. */
function runs(cmd: string, args: string[], accept: (out: string) => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    let out = '';
    let child: ChildProcess;
    try {
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    } catch {
      return resolve(false);
    }
    const take = (d: Buffer) => void (out.length < 4096 && (out += d.toString('latin1')));
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('error', () => resolve(false));
    child.once('close', () => resolve(accept(out)));
  });
}

/**
 * Start decoding `archive` with the first decoder this machine has (or the one asked for). An archive
 * given opened (a user's file the files owner checked, services/files) is read from that descriptor,
 * never its path; it stays the caller's to close, and must not have been read past its start (positional
 * reads leave the offset at 0, which the decoder's sequential read starts from).
 */
export async function openDecoder(archive: string | FileHandle, want: DecoderKind | 'auto' = 'auto'): Promise<Decoder> {
  const found = await availableDecoders();
  const kind = want === 'auto' ? [...found.keys()][0]! : want;
  const cmd = found.get(kind);
  if (cmd === undefined) throw new DecodeError(`no ${kind} on this machine`, false);
  const borrowed = typeof archive !== 'string';
  // O_NONBLOCK: a FIFO put where the archive was opens at once (and is refused below) instead of holding a thread until a writer comes.
  const file = borrowed ? archive : await open(archive, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    // A FIFO or device named like an archive would block the decoder forever: only a regular file is read.
    const st = fstatSync(file.fd);
    if (!st.isFile()) throw new DecodeError('it is not a regular file', false);
    // A .tar.bz2 starts "BZh" and a block size digit; anything else (a plain tar, gzip, a web page) is refused here,
    // whichever decoder runs (libarchive would read most of them).
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    if (bytesRead < 4 || head.toString('latin1', 0, 3) !== 'BZh' || head[3]! < 0x31 || head[3]! > 0x39) {
      throw new DecodeError('it is not a bzip2-compressed archive', bytesRead < 4);
    }
    const release = borrowed ? () => undefined : () => void file.close().catch(() => undefined);
    return { ...(kind === 'js' ? workerDecoder(file.fd, release) : childDecoder(kind, cmd, file.fd, release)), bytes: st.size };
  } catch (err) {
    if (!borrowed) await file.close();
    throw err;
  }
}

function childDecoder(kind: Exclude<DecoderKind, 'js'>, cmd: string, fd: number, release: () => void): Omit<Decoder, 'bytes'> {
  const args = ARGS[kind];
  // The archive is the child's stdin (our descriptor, checked above): it reads exactly the file we looked at.
  const child = spawn(cmd, args, { stdio: [fd, 'pipe', 'pipe'], windowsHide: true, env: { ...process.env, LC_ALL: 'C' } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => void (stderr.length < 2048 && (stderr += d.toString('utf8'))));
  let stopped = false;
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (err) => {
      release();
      reject(new DecodeError(`${cmd} could not start (${(err as NodeJS.ErrnoException).code ?? err.message})`, false));
    });
    child.once('spawn', release);
    child.once('close', (code, signal) => {
      if (code === 0 && !stopped) return resolve();
      const said = stderr.trim().split('\n')[0]?.slice(0, 200) ?? '';
      // bzip2: "Compressed file ends unexpectedly" (then a page of advice); libarchive: "Truncated input file", "Premature end of bzip2".
      const truncated = /ends unexpectedly|truncated|premature end|unexpected end/i.test(stderr);
      reject(new DecodeError(stopped ? 'stopped' : said || `${cmd} ended with ${signal ?? `code ${code}`}`, truncated));
    });
  });
  done.catch(() => undefined); // the caller awaits it when it needs the verdict; a stop must never surface as unhandled
  return {
    kind,
    out: child.stdout!,
    done,
    stop() {
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      child.stdout!.destroy();
    },
  };
}

/**
 * The decoder for machines with neither program: unbzip2-stream's block
 * decoder driven from a worker that reads the file itself, hands 1 MiB
 * batches over (their memory transferred, not copied), and waits (Atomics)
 * while MAX_WAITING batches are unread, so a bomb costs bounded memory and
 * stops when the reader stops.
 */
const BATCH = 1 << 20;
const MAX_WAITING = 8;

// Plain JavaScript, so it runs the same from tsx, the host bundle and Electron.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const bz2 = require(workerData.bzip2);
const bitIterator = require(workerData.bits);
const ctl = new Int32Array(workerData.ctl); // [0] batches waiting to be read, [1] stop
const BATCH = ${BATCH}, MAX_WAITING = ${MAX_WAITING};
class Stop extends Error {}
class Eof extends Error {}
let out = new Uint8Array(new ArrayBuffer(BATCH)), n = 0;
function flush() {
  while (Atomics.load(ctl, 0) >= MAX_WAITING && !Atomics.load(ctl, 1)) Atomics.wait(ctl, 0, Atomics.load(ctl, 0), 1000);
  if (Atomics.load(ctl, 1)) throw new Stop();
  if (n === 0) return;
  Atomics.add(ctl, 0, 1);
  parentPort.postMessage({ n, buf: out.buffer }, [out.buffer]);
  out = new Uint8Array(new ArrayBuffer(BATCH));
  n = 0;
}
const put = (b) => { out[n++] = b; if (n === BATCH) flush(); };
let ended = false;
const next = () => {
  const buf = Buffer.allocUnsafe(BATCH);
  const got = fs.readSync(workerData.fd, buf, 0, BATCH, null);
  if (got === 0) { ended = true; throw new Eof(); }
  return buf.subarray(0, got);
};
try {
  const bits = bitIterator(next);
  let streams = 0;
  for (;;) {
    let size;
    try { size = bz2.header(bits); } catch (e) {
      // After a complete stream, the end of the file (or trailing bytes, which bzip2 ignores too) ends the archive.
      if (streams > 0) break;
      throw e;
    }
    const buf = new Int32Array(100000 * size);
    let crc = 0;
    while ((crc = bz2.decompress(bits, put, buf, 100000 * size, crc)) !== null);
    streams++;
  }
  flush();
  parentPort.postMessage({ end: true });
} catch (e) {
  if (!(e instanceof Stop))
    parentPort.postMessage({ error: e instanceof Eof ? 'the compressed data ends early' : String(e && e.message || e), truncated: e instanceof Eof || ended });
}
`;

function workerDecoder(fd: number, release: () => void): Omit<Decoder, 'bytes'> {
  const require = createRequire(import.meta.url);
  const ctl = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { fd, ctl: ctl.buffer, bzip2: require.resolve('unbzip2-stream/lib/bzip2'), bits: require.resolve('unbzip2-stream/lib/bit_iterator') },
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
  });
  const waiting: Buffer[] = [];
  let wantMore = false;
  let ended = false;
  // Hand batches to the reader while it asks; each one taken lets the worker go on.
  const pump = () => {
    while (wantMore) {
      const b = waiting.shift();
      if (!b) {
        if (ended) {
          wantMore = false;
          out.push(null);
        }
        return;
      }
      Atomics.sub(ctl, 0, 1);
      Atomics.notify(ctl, 0);
      wantMore = out.push(b);
    }
  };
  const out = new Readable({
    highWaterMark: BATCH,
    read() {
      wantMore = true;
      pump();
    },
  });
  let settle: (err?: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => (settle = (err) => (err ? reject(err) : resolve())));
  done.catch(() => undefined);
  let finished = false;
  const finish = (err?: Error) => {
    if (finished) return;
    finished = true;
    // The descriptor closes only once the worker is gone: it may be inside a read of it until then.
    void worker.terminate().then(release, release);
    if (err) out.destroy(err);
    settle(err);
  };
  worker.on('message', (m: { n?: number; buf?: ArrayBuffer; end?: boolean; error?: string; truncated?: boolean }) => {
    if (m.n !== undefined && m.buf) {
      waiting.push(Buffer.from(m.buf, 0, m.n));
      pump();
    } else if (m.end) {
      ended = true;
      pump();
      finish();
    } else if (m.error !== undefined) finish(new DecodeError(m.error, m.truncated === true));
  });
  worker.on('messageerror', (e) => finish(new DecodeError(String(e), false)));
  worker.on('error', (e) => finish(new DecodeError(e.message, false)));
  worker.on('exit', () => finish(new DecodeError('stopped', false)));
  return {
    kind: 'js',
    out,
    done,
    stop() {
      Atomics.store(ctl, 1, 1);
      Atomics.notify(ctl, 0);
      finish(new DecodeError('stopped', false));
    },
  };
}
