// A Vitest reporter that records how long each test file took (environment, import, setup and tests
// together), for the phase table `npm test` prints at the end (scripts/test.mjs). It writes
// { files: [{ file, ms, state }] } as JSON to $VERBATIM_TEST_TIMES and does nothing when that is unset,
// so `npx vitest run FILE` prints exactly what it always did.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

export default class FileTimes {
  files = [];

  onTestModuleEnd(testModule) {
    const d = testModule.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    this.files.push({ file: relative(process.cwd(), testModule.moduleId), ms: Math.round(ms), state: testModule.state() });
  }

  onTestRunEnd() {
    const out = process.env.VERBATIM_TEST_TIMES;
    if (!out) return;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ files: this.files }, null, 1));
  }
}
