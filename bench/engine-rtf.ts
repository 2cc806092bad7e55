/**
 * Real-time factor and word error rate of the local engine on Debian's
 * pocketsphinx-testdata LibriVox clips (real human speech), through the
 * whole pipeline (HTTP submit → ffmpeg → VAD → PocketSphinx → formatting).
 * Goal: RTF ≤ 0.25 on a 2-core machine.
 *   npx tsx bench/engine-rtf.ts
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { wordErrorRate } from '../src/engine/text/wer';
import { benchEngine, call, fmt, waitFinal } from './_engine-support';
import { figure } from './_figure';

const DIR = '/usr/share/pocketsphinx/test/data/librivox';

async function main(): Promise<void> {
  const listing = join(DIR, 'transcription');
  if (!existsSync(listing)) {
    console.log('engine-rtf: skipped — the LibriVox clips are missing (install the Debian package pocketsphinx-testdata).');
    return;
  }
  const clips = readFileSync(listing, 'utf8')
    .split('\n')
    .map((l) => /^<s> (.*) <\/s> \((.*)\)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ ref: m[1] as string, file: join(DIR, `${m[2] as string}.wav`) }));
  const { engine, dir } = await benchEngine({ workers: 1, allowFileUrls: true });
  try {
    // Warm-up: loads the model once so the figures are per-clip decoding.
    const warm = await call(engine, '/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: pathToFileURL(clips[0]!.file).href }) });
    await waitFinal(engine, warm.id as string);
    let audio = 0;
    let wall = 0;
    const cpu0 = process.cpuUsage();
    let errors = 0;
    let refWords = 0;
    console.log('clip                                          audio s  proc s   RTF    WER');
    for (const c of clips) {
      const seconds = Number(execFileSync('soxi', ['-D', c.file]).toString().trim());
      const t0 = performance.now();
      const created = await call(engine, '/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: pathToFileURL(c.file).href }) });
      const t = await waitFinal(engine, created.id as string);
      const proc = (performance.now() - t0) / 1000;
      const wer = wordErrorRate(c.ref, (t.text as string | null) ?? '');
      const n = c.ref.split(' ').length;
      audio += seconds;
      wall += proc;
      errors += wer * n;
      refWords += n;
      console.log(
        `${c.file.split('/').pop()!.padEnd(46)}${fmt(seconds).padStart(7)}${fmt(proc).padStart(8)}${fmt(proc / seconds, 3).padStart(7)}${fmt(wer * 100, 1).padStart(6)}%`,
      );
      if (t.status !== 'completed') console.log(`  error: ${String(t.error)}`);
      else console.log(`  hyp: ${String(t.text)}`);
    }
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.log(
      `\nTOTAL audio ${fmt(audio)} s, wall ${fmt(wall)} s → RTF ${fmt(wall / audio, 3)} (goal ≤ 0.25); engine CPU ${fmt(cpuSeconds)} s (CPU RTF ${fmt(cpuSeconds / audio, 3)}, not counting ffmpeg); corpus WER ${fmt((errors / refWords) * 100, 1)}%`,
    );
    figure('real-time factor (wall)', wall / audio, '×');
    figure('CPU real-time factor', cpuSeconds / audio, '×');
    figure('corpus WER', (errors / refWords) * 100, '%');
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
