/**
 * Unsupervised speaker adaptation for batch jobs (narrowband sources only,
 * see jobs/recognize-segments.ts): from a recording's
 * first-pass words, sphinxtrain's bw collects statistics and mllr_solve makes
 * one MLLR transform of the model's means, which a second pass decodes with.
 * Tools: Debian's sphinxtrain (bw, mllr_solve) and sphinxbase-utils
 * (sphinx_fe); without them the engine decodes once, as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { runTool } from '../audio/spawner';
import type { SpeakerTransform } from './types';

/** Recordings with less speech than this are decoded once: a transform from a few seconds is noise. */
export const ADAPT_MIN_SPEECH_S = 20;
/** The first pass covers this much speech at most (the transform needs no more; longer files pay less for it). */
export const ADAPT_SAMPLE_S = 60;

export const SPHINXTRAIN_DIR = '/usr/lib/sphinxtrain';
export const ADAPT_INSTALL_HINT = 'install the Debian packages sphinxtrain and sphinxbase-utils (sudo apt-get install sphinxtrain sphinxbase-utils)';

/** One first-pass utterance: samples [start, end) of the raw 16 kHz file and the words heard. */
export interface Utterance {
  start: number;
  end: number;
  words: string[];
}

/** bw's name for the model's state-to-codebook tying, by feat.params' -model. */
const TIED_STATES: Record<string, string> = { ptm: '.ptm.', semi: '.semi.', cont: '.cont.' };

/** Frames are 10 ms: 160 samples at 16 kHz. */
const SAMPLES_PER_FRAME = 160;

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, cmd)));
}

/**
 * The model's mixture weights as the Sphinx-3 float file bw reads: Debian
 * ships them only as the decoder's 8-bit "sendump" (byte b = -log_1.0001(w)
 * >> shift, stored [feature][density][senone]; 256 values, so a table).
 */
export function sendumpToMixw(sendump: Buffer): Buffer {
  let at = 0;
  const u32 = (): number => {
    const v = sendump.readUInt32LE(at);
    at += 4;
    return v;
  };
  const titleLength = u32();
  at += titleLength; // the title
  const header: Record<string, string> = {};
  for (let n = u32(); n !== 0; n = u32()) {
    const [k, v] = sendump
      .toString('latin1', at, at + n - 1)
      .trim()
      .split(/\s+/);
    if (k && v) header[k] = v;
    at += n;
  }
  if (Number(header.cluster_count ?? 0) !== 0) throw new Error('the model mixture weights are clustered, which speaker adaptation does not read');
  const shift = Number(header.mixw_shift ?? 10);
  const nFeat = Number(header.feature_count);
  const nDens = u32();
  const nSen = u32();
  if (!(nFeat > 0 && nDens > 0 && nSen > 0) || at + nFeat * nDens * nSen > sendump.length) throw new Error('the model mixture weights (sendump) are truncated');
  const table = Float32Array.from({ length: 256 }, (_, b) => Math.pow(1.0001, -(b << shift)));
  const mixw = new Float32Array(nSen * nFeat * nDens);
  for (let f = 0; f < nFeat; f++)
    for (let d = 0; d < nDens; d++) for (let s = 0; s < nSen; s++) mixw[(s * nFeat + f) * nDens + d] = table[sendump[at++] as number] as number;
  let head = 's3\nversion 1.0\n';
  head += `${' '.repeat((4 - ((head.length + 7) % 4)) % 4)}endhdr\n`;
  const dims = Buffer.alloc(20);
  [0x11223344, nSen, nFeat, nDens, mixw.length].forEach((v, i) => dims.writeUInt32LE(v, i * 4));
  return Buffer.concat([Buffer.from(head, 'latin1'), dims, Buffer.from(mixw.buffer)]);
}

/** The front-end and feature settings of the model's feat.params ("-name value" lines). */
function featParams(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^(-\w+)\s+(\S+)/.exec(line.trim());
    if (m) out[m[1] as string] = m[2] as string;
  }
  return out;
}

export interface SpeakerAdapterOptions {
  /** The model folder (as SphinxRecognizer's modelDir). */
  modelDir: string;
  /** Where bw and mllr_solve are (default Debian's /usr/lib/sphinxtrain). */
  toolDir?: string;
}

export class SpeakerAdapter {
  private readonly hmm: string;
  private readonly toolDir: string;
  private prepared: Promise<string> | null = null;
  private cacheDir: string | null = null;

  constructor(private readonly opts: SpeakerAdapterOptions) {
    this.hmm = join(opts.modelDir, 'en-us');
    this.toolDir = opts.toolDir ?? SPHINXTRAIN_DIR;
  }

  /** Why adaptation is off (a tool or model file missing), or null. */
  get unavailableReason(): string | null {
    for (const t of ['bw', 'mllr_solve']) if (!existsSync(join(this.toolDir, t))) return `${join(this.toolDir, t)} is missing: ${ADAPT_INSTALL_HINT}`;
    for (const t of ['sphinx_fe', 'pocketsphinx_mdef_convert']) if (!onPath(t)) return `${t} is missing: ${ADAPT_INSTALL_HINT}`;
    for (const f of ['mdef', 'means', 'variances', 'transition_matrices', 'sendump', 'noisedict', 'feat.params'])
      if (!existsSync(join(this.hmm, f))) return `the model has no ${f} file, which speaker adaptation needs`;
    return null;
  }

  get available(): boolean {
    return this.unavailableReason === null;
  }

  /** Once per process: the mixture weights and model definition in the forms bw reads. */
  private prepare(): Promise<string> {
    this.prepared ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'verbatim-adapt-'));
      this.cacheDir = dir;
      await writeFile(join(dir, 'mixture_weights'), sendumpToMixw(await readFile(join(this.hmm, 'sendump'))));
      const r = await runTool('pocketsphinx_mdef_convert', ['-text', join(this.hmm, 'mdef'), join(dir, 'mdef')]);
      if (r.code !== 0) throw new Error(`pocketsphinx_mdef_convert failed: ${r.stderr.trim().split('\n').pop() ?? ''}`);
      return dir;
    })();
    this.prepared.catch(() => {
      this.prepared = null;
    });
    return this.prepared;
  }

  /**
   * A transform for the speaker of `raw` (16 kHz PCM16) from its first-pass
   * utterances. Work files go in `workDir` (the job's folder; the caller
   * removes it); the transform is `workDir`/speaker.mllr.
   */
  async solve(raw: string, utts: Utterance[], workDir: string, signal?: AbortSignal): Promise<SpeakerTransform> {
    const used = utts.filter((u) => u.words.length > 0 && u.end - u.start >= SAMPLES_PER_FRAME * 30);
    if (!used.length) throw new Error('the first pass heard no words to adapt to');
    const cache = await this.prepare();
    await mkdir(workDir, { recursive: true });
    const acc = join(workDir, 'acc');
    await mkdir(acc, { recursive: true });
    // Features of the part of the file the utterances cover (sphinx_fe reads raw samples).
    const head = join(workDir, 'head.raw');
    const last = Math.max(...used.map((u) => u.end));
    await copyHead(raw, head, last * 2);
    const fp = featParams(join(this.hmm, 'feat.params'));
    const fe = await runTool(
      'sphinx_fe',
      ['-argfile', join(this.hmm, 'feat.params'), '-samprate', '16000', '-raw', 'yes', '-i', head, '-o', join(workDir, 'head.mfc')],
      signal,
    );
    if (fe.code !== 0) throw new Error(`sphinx_fe failed: ${lastLine(fe.stderr)}`);
    await rm(head, { force: true });
    // One control line per utterance: the feature file, its first and last frame, an id.
    const ctl = used.map((u, i) => `head ${Math.floor(u.start / SAMPLES_PER_FRAME)} ${Math.floor(u.end / SAMPLES_PER_FRAME) - 1} u${i}\n`).join('');
    const lsn = used.map((u, i) => `<s> ${u.words.join(' ')} </s> (u${i})\n`).join('');
    await writeFile(join(workDir, 'ctl'), ctl);
    await writeFile(join(workDir, 'lsn'), lsn);
    const bw = await runTool(
      join(this.toolDir, 'bw'),
      [
        ['-moddeffn', join(cache, 'mdef'), '-ts2cbfn', TIED_STATES[fp['-model'] ?? ''] ?? '.cont.', '-mixwfn', join(cache, 'mixture_weights')],
        ['-meanfn', join(this.hmm, 'means'), '-varfn', join(this.hmm, 'variances'), '-tmatfn', join(this.hmm, 'transition_matrices')],
        ['-feat', fp['-feat'] ?? '1s_c_d_dd', '-cmn', fp['-cmn'] ?? 'batch', '-agc', fp['-agc'] ?? 'none', '-varnorm', fp['-varnorm'] ?? 'no'],
        fp['-svspec'] ? ['-svspec', fp['-svspec']] : [],
        ['-dictfn', join(this.opts.modelDir, 'cmudict-en-us.dict'), '-fdictfn', join(this.hmm, 'noisedict')],
        ['-ctlfn', join(workDir, 'ctl'), '-lsnfn', join(workDir, 'lsn'), '-cepdir', workDir, '-cepext', 'mfc', '-accumdir', acc, '-timing', 'no'],
      ].flat(),
      signal,
    );
    if (bw.code !== 0) throw new Error(`bw failed: ${lastLine(bw.stderr)}`);
    const file = join(workDir, 'speaker.mllr');
    const solved = await runTool(
      join(this.toolDir, 'mllr_solve'),
      ['-meanfn', join(this.hmm, 'means'), '-varfn', join(this.hmm, 'variances'), '-outmllrfn', file, '-accumdir', acc],
      signal,
    );
    if (solved.code !== 0 || !existsSync(file)) throw new Error(`mllr_solve failed: ${lastLine(solved.stderr)}`);
    return { file };
  }

  /** Removes the per-process files (mixture weights, model definition). */
  dispose(): void {
    if (this.cacheDir) void rm(this.cacheDir, { recursive: true, force: true });
    this.cacheDir = null;
    this.prepared = null;
  }
}

function lastLine(s: string): string {
  return (
    s
      .trim()
      .split('\n')
      .filter((l) => /error|fatal/i.test(l))
      .pop() ??
    s.trim().split('\n').pop() ??
    ''
  ).slice(0, 300);
}

/** Copies the first `bytes` of `from` to `to`, in chunks (the file may be hours long). */
async function copyHead(from: string, to: string, bytes: number): Promise<void> {
  const src = await open(from, 'r');
  const dst = await open(to, 'w');
  try {
    const buf = Buffer.alloc(1 << 20);
    for (let pos = 0; pos < bytes;) {
      const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, bytes - pos), pos);
      if (bytesRead === 0) break;
      await dst.write(buf, 0, bytesRead);
      pos += bytesRead;
    }
  } finally {
    await src.close();
    await dst.close();
  }
}
