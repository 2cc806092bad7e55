/**
 * Host mode's first answer waits for main's modules (the IPC contract and core.ts) to load, so nothing they
 * run as they load may pay for what only a rare action needs (issue 52: cold start went from 248 to ~345 ms).
 * Two such costs had crept in: the `yaml` package (~50 module files, ~20 ms of every start) loaded for the
 * Markdown export, and a toLocaleString in the contract's body (a process's first one loads ICU's number
 * formats: 15-35 ms). And the schemas: made as their modules loaded, they were 4,301 zod schemas (~25 ms); they
 * are made on first use now (shared/lazy-schemas.ts). A child process loads the modules in host mode's order and
 * tells what it saw; it then formats a number, loads yaml and parses one channel's input itself, so that a watch
 * that sees nothing is not taken for a pass.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

const CHILD = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const seen = [];
const watch = (proto, key, name) => {
  const real = proto[key];
  proto[key] = function (...args) { seen.push(name); return real.apply(this, args); };
};
watch(Number.prototype, 'toLocaleString', 'Number#toLocaleString');
watch(BigInt.prototype, 'toLocaleString', 'BigInt#toLocaleString');
watch(Date.prototype, 'toLocaleString', 'Date#toLocaleString');
watch(Date.prototype, 'toLocaleDateString', 'Date#toLocaleDateString');
watch(Date.prototype, 'toLocaleTimeString', 'Date#toLocaleTimeString');
watch(String.prototype, 'localeCompare', 'String#localeCompare');
for (const k of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DisplayNames']) {
  const Real = Intl[k];
  Intl[k] = new Proxy(Real, {
    construct: (t, a, n) => (seen.push('Intl.' + k), Reflect.construct(t, a, n)),
    apply: (t, self, a) => (seen.push('Intl.' + k), Reflect.apply(t, self, a)),
  });
}
// zod calls its config's postProcessor with every schema it makes (zod's core, $constructor).
let schemas = 0;
globalThis.__zod_globalConfig = { postProcessor: () => void schemas++ };
const cache = createRequire(pathToFileURL(process.cwd() + '/package.json')).cache;
const yamlLoaded = () => Object.keys(cache).some((p) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(p));
for (const m of ['src/main/zod-setup.ts', 'src/shared/ipc.ts', 'src/main/core.ts']) await import(pathToFileURL(m).href);
const atLoad = { intl: [...seen], yaml: yamlLoaded(), schemas };
(1234).toLocaleString('en');
createRequire(pathToFileURL(process.cwd() + '/package.json'))('yaml');
const { channels } = await import(pathToFileURL('src/shared/ipc.ts').href);
channels['subtitles.run'].input.safeParse({});
console.log(JSON.stringify({ atLoad, after: { intl: seen.slice(atLoad.intl.length), yaml: yamlLoaded(), schemas: schemas - atLoad.schemas } }));
`;

interface Seen {
  intl: string[];
  yaml: boolean;
  /** zod schemas made. */
  schemas: number;
}

/**
 * The most zod schemas loading them may make. Their modules make their schemas on first use (shared/lazy-schemas.ts):
 * 533 when this was written, against 4,301 when every module made its own as it loaded (~25 ms of host mode's start).
 */
const SCHEMAS_AT_LOAD = 1000;

describe("main's modules as host mode loads them", () => {
  it('format no number, load no yaml and make few zod schemas while they load', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    const { atLoad, after } = JSON.parse(line) as { atLoad: Seen; after: Seen };
    expect({ intl: atLoad.intl, yaml: atLoad.yaml }).toEqual({ intl: [], yaml: false });
    expect(atLoad.schemas).toBeLessThanOrEqual(SCHEMAS_AT_LOAD);
    // The watches see what they watch: a number formatted, yaml loaded, and the schemas of a channel made on its first parse, after the modules are.
    expect({ intl: after.intl, yaml: after.yaml }).toEqual({ intl: ['Number#toLocaleString'], yaml: true });
    expect(after.schemas).toBeGreaterThan(100);
  });
});
