import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const fixtures = join(root, 'tests/fixtures/lint');

async function lintAs(code: string, asPath: string) {
  const eslint = new ESLint({ cwd: root, ignore: false });
  const [result] = await eslint.lintText(code, { filePath: join(root, asPath) });
  // no-restricted-syntax holds the import() expressions (features never load another feature lazily either).
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax');
}

describe('DESIGN.md §2 import boundaries', () => {
  const files = readdirSync(fixtures).filter((f) => /\.tsx?$/.test(f));

  it('has a fixture for every boundary', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  for (const file of files) {
    it(`rejects ${file}`, async () => {
      const code = readFileSync(join(fixtures, file), 'utf8');
      const asPath = /^\/\/ as: (\S+)/.exec(code)?.[1];
      expect(asPath, 'fixture names the path it pretends to live at').toBeTruthy();
      const errors = await lintAs(code, asPath as string);
      const importLines = code.split('\n').filter((l) => l.startsWith('import ') || l.includes('import(')).length;
      // every import line (static, or an import() expression) is rejected (a line may break more than one rule)
      expect(new Set(errors.map((e) => e.line)).size).toBe(importLines);
      expect(errors.every((e) => e.message.includes('DESIGN.md'))).toBe(true);
    });
  }

  it('accepts allowed imports', async () => {
    const ok = "import { z } from 'zod';\nimport { settingsSchema } from './settings';\nexport const a = [z, settingsSchema];\n";
    expect(await lintAs(ok, 'src/shared/ok.ts')).toEqual([]);
    const renderer =
      "import { errorMessage } from '../../bridge';\nimport { channels } from '../../../../shared/ipc';\nexport const a = [errorMessage, channels];\n";
    expect(await lintAs(renderer, 'src/renderer/src/features/library/ok.ts')).toEqual([]);
    // A service may name the contract's types (plain values cross it), never its runtime channels or the bridge's reader.
    const service =
      "import type { KeyStatus, VerbatimApi } from '../../../shared/ipc';\nimport type { SubtitleRun } from '../../../shared/ipc/subtitles';\nimport { AppError } from '../../../shared/errors';\nexport const a = [AppError] as unknown as [KeyStatus, VerbatimApi, SubtitleRun];\n";
    expect(await lintAs(service, 'src/main/services/library/ok.ts')).toEqual([]);
    // Staged uploads are the files owner's: it and the composition import them (fixtures *-imports-staged: nothing else).
    const staged = "import { StagedUploads } from './staged';\nexport const a = [StagedUploads];\n";
    expect(await lintAs(staged, 'src/main/services/files/ok.ts')).toEqual([]);
    expect(await lintAs(staged.replace('./staged', './services/files/staged'), 'src/main/core.ts')).toEqual([]);
  });

  it('lets the engine layers import what they may (only models/ reads manifests)', async () => {
    const reader =
      "import { MODEL_MANIFEST_FILE, modelManifestSchema } from '../../shared/models/catalog';\nexport const a = [MODEL_MANIFEST_FILE, modelManifestSchema];\n";
    expect(await lintAs(reader, 'src/engine/models/ok.ts')).toEqual([]);
    const route =
      "import { buildRecognizers } from '../recognizer/engine-set';\nimport { MAX_SPEAKERS } from '../recognizer/speakers';\nimport { namedLocalModels } from '../models/choose';\nimport { modelIdSchema } from '../../shared/models/catalog';\nexport const a = [buildRecognizers, MAX_SPEAKERS, namedLocalModels, modelIdSchema];\n";
    expect(await lintAs(route, 'src/engine/routes/ok.ts')).toEqual([]);
    expect(await lintAs(route, 'src/engine/jobs/ok.ts')).toEqual([]);
    const native =
      "import { childEntry } from './entry';\nimport type { ChildRequest } from './child-host';\nexport const a = [childEntry] as unknown as ChildRequest;\n";
    expect(await lintAs(native, 'src/engine/native/ok.ts')).toEqual([]);
    const sherpa =
      "import { NativeChild } from '../../native/child-host';\nimport { ModelsFolder } from '../../models/folder';\nexport const a = [NativeChild, ModelsFolder];\n";
    expect(await lintAs(sherpa, 'src/engine/recognizer/sherpa/ok.ts')).toEqual([]);
  });

  it('lets each renderer layer import the layers below it', async () => {
    const store =
      "import { api } from '../bridge';\nimport { findWords } from '../lib/words';\nimport { labels } from '../components/labels';\nexport const a = [api, findWords, labels];\n";
    expect(await lintAs(store, 'src/renderer/src/stores/ok.ts')).toEqual([]);
    // A feature imports its own files, stores, lib and components, and the bridge's helpers other than api.
    const feature =
      "import { useLibrary } from '../../stores/library';\nimport { readPicked } from '../../lib/subtitleFile';\nimport { Button } from '../../components/Button';\nimport { mediaSrc, transport } from '../../bridge';\nimport { LibraryList } from './LibraryList';\nexport const a = [useLibrary, readPicked, Button, mediaSrc, transport, LibraryList, () => import('./ExportDialog')];\n";
    expect(await lintAs(feature, 'src/renderer/src/features/library/ok.ts')).toEqual([]);
    // The app frame composes features and draws their dialogs: it may import (and lazily load) any of them.
    const frame =
      "import { LibraryScreen } from './features/library/LibraryScreen';\nexport const a = [LibraryScreen, () => import('./features/chat/InsightsDialog')];\n";
    expect(await lintAs(frame, 'src/renderer/src/DialogHost.tsx')).toEqual([]);
    const component = "import { Button } from './Button';\nimport { findWords } from '../lib/words';\nexport const a = [Button, findWords];\n";
    expect(await lintAs(component, 'src/renderer/src/components/ok.tsx')).toEqual([]);
  });
});
