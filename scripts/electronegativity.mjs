// Runs Electronegativity (Doyensec's Electron audit) offline over src/ and fails on any MEDIUM or HIGH finding not justified in security/electronegativity.json; part of `npm run lint`.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '..');
const pkg = join(root, 'node_modules/@doyensec/electronegativity');
// The CLI fetches translations from the network first (and crashes without it): register the bundled English ones instead.
const i18n = require('i18n');
i18n.configure({
  locales: ['en-US'],
  defaultLocale: 'en-US',
  directory: join(pkg, 'dist/locales'),
  updateFiles: false,
  objectNotation: true,
  register: globalThis,
});
i18n.setLocale('en-US');
const fetchTranslations = require.resolve(join(pkg, 'dist/locales/i18n.js'));
require.cache[fetchTranslations] = {
  id: fetchTranslations,
  filename: fetchTranslations,
  loaded: true,
  exports: { __esModule: true, default: async () => undefined },
};
const run = require(join(pkg, 'dist/runner.js'));
const { severity } = require(join(pkg, 'dist/finder/attributes.js'));
const electron = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;

const justified = JSON.parse(readFileSync(join(root, 'security/electronegativity.json'), 'utf8')).findings;
const input = join(root, 'src');
const result = await run(
  {
    input,
    output: undefined,
    isSarif: false,
    customScan: [],
    // The release-list check downloads Electron's release notes: there is no network here, and the version is pinned in package.json.
    excludeFromScan: ['availablesecurityfixesglobalcheck'],
    severitySet: 'informational',
    confidenceSet: 'tentative',
    isRelative: true,
    isVerbose: false,
    electronUpgrade: undefined,
    electronVersionOverride: electron,
    parserPlugins: [],
  },
  false,
);
const key = (i) => `${i.id} ${i.file}`;
const serious = result.issues.filter((i) => i.severity.value >= severity.MEDIUM.value);
const unexplained = serious.filter((i) => !justified.some((j) => j.id === i.id && j.file === i.file));
const stale = justified.filter((j) => !serious.some((i) => i.id === j.id && i.file === j.file));
for (const i of result.issues)
  console.log(`${unexplained.includes(i) ? 'UNEXPLAINED ' : ''}${i.severity.name} ${i.confidence.name} ${key(i)}:${i.location.line}`);
for (const j of stale) console.log(`stale justification (no such finding now): ${j.id} ${j.file}`);
console.log(`electronegativity: ${result.issues.length} findings, ${serious.length} MEDIUM or HIGH, ${unexplained.length} unexplained (Electron ${electron})`);
process.exit(unexplained.length || stale.length ? 1 : 0);
