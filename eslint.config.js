// ESLint: typescript-eslint's recommended rules, React hooks rules, and the
// import boundaries of DESIGN.md §2 (who may import what).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'https',
  'net',
  'stream',
  'url',
  'util',
  'worker_threads',
  'events',
  'buffer',
];
const outside = (...dirs) => dirs.map((d) => ({ group: [`**/${d}/*`, `**/${d}`], message: `DESIGN.md §2: this folder may not import from src/${d}.` }));

const renderer = [
  ...outside('main', 'engine', 'preload'),
  { group: ['electron', ...nodeBuiltins], message: 'DESIGN.md §2: the renderer never imports Node built-ins or electron; ask main through the bridge.' },
];
const above = (...dirs) =>
  dirs.map((d) => ({
    group: [`**/${d}/*`, `**/${d}`],
    message: `DESIGN.md §2: renderer imports run features → stores → lib/components → bridge/shared; this folder may not import ${d}/ (pass the data by props or move the helper down to lib/).`,
  }));

/** Components, features and lib/ reach main through the stores' actions, never the bridge's `api` itself (its other helpers are fine). */
const noApi = {
  group: ['**/bridge'],
  importNames: ['api'],
  message: 'DESIGN.md §2: only stores/ call main; add an action to a store (or use one) instead of importing api from the bridge.',
};
// Features are peers (one floor): none imports another, statically or with import(). A dialog one feature opens
// and another draws goes through stores/app `show` and DialogHost; other shared parts move down to lib/ or a
// store, or are composed in App.tsx. '../x' from features/<name>/ is a sibling feature ('../../x' leaves features/).
const peerFeature = '^\\.\\./(?!\\.\\.)';
const peerMessage =
  'DESIGN.md §2: features are peers and never import one another; open a dialog with stores/app show(), move the shared part to a store or lib/, or compose the two in App.tsx.';

const engine = [...outside('main', 'renderer', 'preload'), { group: ['electron', 'electron/*'], message: 'DESIGN.md §2: the engine never imports electron.' }];
/** The manifest's file name and schema are how a manifest is read: only src/engine/models/ (the folder's one reader) may. */
const manifests = {
  group: ['**/shared/models/*', '**/shared/models'],
  importNames: ['MODEL_MANIFEST_FILE', 'modelManifestSchema'],
  message: "DESIGN.md §2: only src/engine/models/ reads the models folder's manifests; ask it (ModelsFolder list, find, file).",
};

/**
 * Staged uploads are the files owner's (issue 47): a service asks src/main/services/files/ (UserFiles: openUpload,
 * stagedCopy, staged) and never builds or reads a staged path itself; only files/ and the composition (core.ts) import it.
 */
const staged = {
  group: ['**/files/staged', '**/files/staged.js', '**/files/staged.ts'],
  message: 'DESIGN.md §2: only src/main/services/files/ and core.ts import files/staged; ask UserFiles (openUpload, stagedCopy, its staged) instead.',
};
const mainPatterns = [
  ...outside('engine', 'renderer', 'preload'),
  { group: ['electron', 'electron/*'], message: 'DESIGN.md §2: only src/main/index.ts, windows/ and platform/electron/ import electron.' },
];
const servicePatterns = [
  ...mainPatterns,
  { group: ['**/shared/bridge-request'], message: 'DESIGN.md §2: services know no transport; the bridge reads requests in host/ and ipc/.' },
  {
    group: ['**/shared/ipc', '**/shared/ipc/*'],
    importNames: ['channels', 'events'],
    allowTypeImports: true,
    message: "DESIGN.md §2: services know no transport; the contract's channels and events are ipc/'s (the router checks them).",
  },
];

export const boundaries = [
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...outside('main', 'renderer', 'engine', 'preload'),
            { group: ['electron', ...nodeBuiltins], message: 'DESIGN.md §2: src/shared is pure TypeScript (no Node, DOM-free, no electron).' },
            // entities/decode is the one exception: the HTML named character reference table (2,000+ names) that
            // subtitle cue text is decoded by (subtitles/display.ts); pure code, no Node or DOM. Not its encoders.
            {
              regex: '^(?!zod$|zod/|entities/decode$|\\.{1,2}/).*',
              message: 'DESIGN.md §2: src/shared imports nothing outside itself except zod (and entities/decode for subtitle text).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: renderer }] },
  },
  // Inside the renderer imports run one way, features → stores → lib/components → bridge/shared
  // (like VS Code's code-import-patterns: each layer lists what it may not reach up to).
  {
    files: ['src/renderer/src/stores/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...renderer, ...above('features')] }] },
  },
  {
    files: ['src/renderer/src/components/**/*.{ts,tsx}', 'src/renderer/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...renderer, ...above('features', 'stores'), noApi] }] },
  },
  {
    files: ['src/renderer/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...renderer, noApi, { regex: peerFeature, message: peerMessage }] }],
      // esquery's regex literal cannot hold a '/': \x2F is the same character.
      'no-restricted-syntax': ['error', { selector: 'ImportExpression[source.value=/^\\.\\.\\x2F(?!\\.\\.)/]', message: peerMessage }],
    },
  },
  {
    files: ['src/main/services/**/*.ts', 'src/main/ipc/**/*.ts', 'src/main/host/**/*.ts', 'src/main/platform/host/**/*.ts', 'src/main/core.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...mainPatterns, staged] }] },
  },
  // The composition builds the files owner with its staging folder.
  { files: ['src/main/core.ts'], rules: { 'no-restricted-imports': ['error', { patterns: mainPatterns }] } },
  // The library and every other service know no transport (issue 38): the contract's runtime channels and events, and the
  // bridge's reading of a request, belong to ipc/ and host/; a service takes and answers plain values (type imports stay allowed).
  {
    files: ['src/main/services/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...servicePatterns, staged] }] },
  },
  { files: ['src/main/services/files/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: servicePatterns }] } },
  {
    files: ['src/main/index.ts', 'src/main/windows/**/*.ts', 'src/main/platform/electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: outside('engine', 'renderer', 'preload') }] },
  },
  // Inside the engine (issue 38): only models/ reads the models folder's manifests; routes and jobs ask
  // recognizer/ and models/, never recognizer/sherpa/; native/ is the floor under recognizer/ and gateway/.
  { files: ['src/engine/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [...engine, manifests] }] } },
  { files: ['src/engine/models/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: engine }] } },
  {
    files: ['src/engine/routes/**/*.ts', 'src/engine/jobs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engine,
            manifests,
            {
              group: ['**/recognizer/sherpa/*', '**/recognizer/sherpa'],
              message: 'DESIGN.md §2: routes and jobs ask recognizer/ (forJob, forStream, speakers) and models/, never recognizer/sherpa/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/native/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engine,
            manifests,
            {
              group: ['**/recognizer/*', '**/recognizer', '**/gateway/*', '**/gateway'],
              message:
                "DESIGN.md §2: native/ is the floor under recognizer/ and gateway/ and imports neither; a worker's kinds and entry sit beside its handlers.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: outside('main', 'renderer', 'engine') }] },
  },
];

/** DESIGN.md §2: no file in src/main or src/engine over 400 lines, the renderer's components over 450 (blank lines and comments not counted). */
export const sizes = [
  { files: ['src/main/**/*.ts', 'src/engine/**/*.ts'], rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] } },
  { files: ['src/renderer/src/**/*.tsx'], rules: { 'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }] } },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'tests/fixtures/lint/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...boundaries,
  ...sizes,
);
