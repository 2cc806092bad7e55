/**
 * Time per audio hour of a subtitle translation (the subtitle editor's
 * Translate…): an hour of cues (one every 3 s, 1,200 in all, ~40 characters
 * each) translated cue by cue in parts, with the two cues before each part as
 * context, through the engine's chat gateway, as services/chat/cue-translate.ts
 * does for the app. Printed: the whole hour's time, the model calls, and the
 * cues a second. By default the tiny generated llama of
 * tests/fixtures/models/gguf.ts (it answers a fixed sentence, so the figure is
 * the pipeline's and the engine's, not a real model's); `--model FILE` runs a
 * real GGUF (`--context N`, default 8192). Named summarise-* so that
 * `npm run bench -- summarise` prints it beside the summary at Stop.
 *   npm run bench -- summarise-subtitles [--model FILE.gguf] [--context N]
 */
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { installTinyGguf } from '../tests/fixtures/models/gguf';
import { GatewayClient } from '../src/main/services/client/gateway';
import { translateCues, type CueToTranslate } from '../src/main/services/chat/cue-translate';
import { figure } from './_figure';
import { benchEngine, fmt, KEY } from './_engine-support';

const { values } = parseArgs({ options: { model: { type: 'string' }, context: { type: 'string' } } });
const CUES = 1200;
const TOPICS = ['the budget', 'the launch date', 'hiring', 'the supplier', 'the plan', 'feedback', 'the move', 'the roadmap'];
const cueText = (i: number) => `We looked at ${TOPICS[Math.floor(i / 40) % TOPICS.length]} again, item ${i}.`;

async function main(): Promise<void> {
  // No per-minute request limit: the figure is the translation's time, not a rate limit's wait (the app waits those out).
  const { engine, dir } = await benchEngine({ workers: 1, gateway: { defaultLimit: 1_000_000 } });
  const modelsDir = join(dir, 'data', 'models');
  const id = 'bench-subtitle-translator';
  const contextLength = values.model ? Number(values.context ?? 8192) : 4096;
  if (values.model) {
    const file = resolve(values.model);
    mkdirSync(join(modelsDir, id), { recursive: true });
    symlinkSync(file, join(modelsDir, id, basename(file)));
    writeFileSync(
      join(modelsDir, id, 'verbatim-model.json'),
      JSON.stringify({
        id,
        name: basename(file),
        task: 'chat',
        family: 'gguf',
        languages: ['en'],
        files: { model: basename(file) },
        wordTimings: 'none',
        sha256: null,
        bytes: statSync(file).size,
        installedAt: new Date().toISOString(),
        contextLength,
        ramBytes: null,
      }),
    );
  } else {
    // The cues' words are whole tokens, so their text takes about as many tokens a character as a real model's.
    const vocabulary = new Set(Array.from({ length: CUES }, (_, i) => cueText(i).split(' ')).flat());
    installTinyGguf(modelsDir, id, { words: ['Nous', 'avons', 'revu', 'le', 'budget', '.'], vocabulary: [...vocabulary] });
  }
  const gateway = new GatewayClient(engine.url, KEY);
  for (const end = Date.now() + 120_000; !(await gateway.models()).some((m) => m.id === id);) {
    if (Date.now() > end) throw new Error('the engine did not list the model');
    await new Promise((r) => setTimeout(r, 200));
  }
  // A first answer loads the model, as a first part would.
  await gateway.chat({ model: id, messages: [{ role: 'user', content: 'Hello.' }], max_tokens: 8 });

  const all = Array.from({ length: CUES }, (_, i) => cueText(i));
  const todo: CueToTranslate[] = all.map((text, index) => ({ index, text }));
  let parts = 0;
  let cues = 0;
  const t0 = performance.now();
  const { asks } = await translateCues({
    todo,
    all,
    language: 'French',
    contextLength,
    call: async (body, signal) => (await gateway.chat({ model: id, ...body, temperature: 0 }, signal)).choices[0]?.message.content ?? '',
    onPart: (p) => {
      parts++;
      cues += p.length;
    },
    signal: new AbortController().signal,
  });
  const ms = performance.now() - t0;
  if (cues !== CUES) throw new Error(`only ${cues} of ${CUES} cues came back`);
  console.log(`model: ${values.model ? basename(values.model) : 'tiny generated llama'} (context ${contextLength} tokens)`);
  console.log(`an hour of subtitles: ${CUES} cues, ${all.reduce((a, t) => a + t.length, 0)} characters`);
  console.log(`translated in ${fmt(ms / 1000)} s per audio hour (${parts} parts, ${asks} model calls, ${fmt(CUES / (ms / 1000), 1)} cues/s)`);
  figure(`subtitle translation per audio hour (${values.model ? basename(values.model) : 'tiny'})`, ms, 'ms');
  await engine.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
