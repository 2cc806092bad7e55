/**
 * `verbatim transcribe FILE|FOLDER...`: each file becomes a job as if dropped on the app's window
 * (the library's jobs, the same engine and settings), then the chosen formats are written.
 */
import { resolve } from 'node:path';
import { SPEECH_MODELS as CLOUD_SPEECH_MODELS } from '../../shared/api/transcript';
import type { Job, JobChanged, JobProgress, TranscriptionOptions } from '../../shared/jobs';
import { BUILTIN_SPEECH_MODEL } from '../../shared/models/catalog';
import type { Core } from '../core';
import { CliError, usageError, type Values } from './errors';
import { collectFiles } from './media-sniff';
import { Progress, type Stage } from './progress';
import { dataDirOf, inUse, openCore } from './session';
import { parseFormats, writeExport } from './write-export';

export function speakerOptions(raw: string | undefined): Pick<TranscriptionOptions, 'speakerLabels' | 'speakersExpected'> {
  if (raw === undefined) return {};
  if (raw === 'auto') return { speakerLabels: true, speakersExpected: null };
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 10) throw usageError(`--speakers takes a number from 1 to 10 or “auto”, not “${raw}”`, 'transcribe');
  return { speakerLabels: true, speakersExpected: n };
}

/** A model the user can name: a cloud model, the built-in one, or a local speech model that is installed. */
async function checkModel(core: Core, id: string): Promise<void> {
  if (id === BUILTIN_SPEECH_MODEL || (CLOUD_SPEECH_MODELS as readonly string[]).includes(id)) return;
  const list = await core.models.list();
  const row = list.models.find((m) => m.entry.id === id);
  if (row && row.entry.task !== 'files')
    throw new CliError(`${id} is not a model for transcribing files (it is for ${row.entry.task}). See: verbatim models list`);
  if (row && !row.installed) throw new CliError(`The model ${id} is not installed. Download it first: verbatim models download ${id}`);
  if (row) return;
  throw new CliError(`There is no speech model called “${id}”. See the models: verbatim models list`);
}

function stageOf(job: Job): Stage {
  if (job.status === 'completed') return 'writing';
  if (job.status === 'error' || job.status === 'canceled') return 'failed';
  return job.status;
}

export async function transcribeCommand(values: Values, positionals: string[]): Promise<number> {
  if (!positionals.length) throw usageError('Name at least one file or folder to transcribe', 'transcribe');
  const formats = parseFormats(values.format as string[] | undefined, 'transcribe');
  const speakers = speakerOptions(values.speakers as string | undefined);
  const outDir = resolve((values.out as string | undefined) ?? '.');
  const dataDir = dataDirOf(values.data as string | undefined);
  const progress = new Progress();
  const wanted = await collectFiles(positionals);
  if (!wanted.length) throw new CliError(`No audio or video files in ${positionals.join(', ')}.`);
  wanted.forEach((w, i) => progress.add(String(i), w.path));
  let failed = 0;
  for (const [i, w] of wanted.entries()) {
    if (!w.problem) continue;
    failed++;
    progress.set(String(i), 'failed', `: ${w.problem}`);
  }
  const todo = wanted.map((w, i) => ({ ...w, key: String(i) })).filter((w) => !w.problem);
  if (!todo.length) {
    progress.end();
    return 1;
  }
  progress.announce();
  const debug = process.env.VERBATIM_DEBUG ? (m: string) => progress.line(`verbatim: ${m}`) : () => undefined;
  const session = await openCore(dataDir, debug);
  const { core } = session;
  // Printed after the progress ends: a line on stdout between two redraws (one terminal for both) would be drawn over.
  const results: string[] = [];
  try {
    const model = values.model as string | undefined;
    if (model) await checkModel(core, model);
    const options: TranscriptionOptions = {
      ...(model ? { speechModels: [model] } : {}),
      ...(values.language ? { languageCode: values.language as string } : {}),
      ...speakers,
    };
    const byJob = new Map<string, string>();
    const finals = new Map<string, Job>();
    let wake: () => void = () => undefined;
    const off = core.router.subscribe((event, payload) => {
      if (event === 'jobs.progress') {
        const p = payload as JobProgress;
        const key = byJob.get(p.id);
        if (key) progress.bytes(key, p.bytes, p.total);
      } else if (event === 'jobs.changed') {
        const { id, job } = payload as JobChanged;
        const key = byJob.get(id);
        if (!key || !job) return;
        progress.set(key, stageOf(job));
        if (['completed', 'error', 'canceled'].includes(job.status)) {
          finals.set(id, job);
          wake();
        }
      }
    });
    for (const w of todo) {
      try {
        const [job] = await core.jobs.addFiles([{ path: w.path, picked: true }], Object.keys(options).length ? options : undefined);
        byJob.set(job!.id, w.key);
        progress.set(w.key, stageOf(job!));
        if (['completed', 'error', 'canceled'].includes(job!.status)) finals.set(job!.id, job!);
      } catch (e) {
        const busy = inUse(dataDir, e);
        if (busy) throw busy;
        failed++;
        progress.set(w.key, 'failed', `: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    while (finals.size < byJob.size) await new Promise<void>((r) => (wake = r));
    off();
    const used = new Set<string>();
    for (const [id, key] of byJob) {
      const job = finals.get(id)!;
      if (job.status !== 'completed') {
        failed++;
        progress.set(key, 'failed', `: ${job.error?.message ?? 'canceled'}`);
        continue;
      }
      try {
        const written: string[] = [];
        for (const f of formats) written.push(await writeExport(core.library, job.recordingId, f, outDir, used));
        progress.set(key, 'done', `(${job.recordingId})`);
        results.push(`${job.recordingId}\t${job.name}${written.length ? `\t${written.join('\t')}` : ''}\n`);
      } catch (e) {
        failed++;
        progress.set(key, 'failed', `: the transcript is in the library, but writing its files failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  } finally {
    progress.end();
    process.stdout.write(results.join(''));
    await session.close();
  }
  return failed ? 1 : 0;
}
