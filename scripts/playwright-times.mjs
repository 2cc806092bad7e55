// A Playwright reporter that records how long each spec file took (the sum of its tests' durations,
// hooks and retries included), for the phase table `npm test` prints at the end (scripts/test.mjs).
// It writes { files: [{ file, ms, state }] } as JSON to $VERBATIM_TEST_TIMES and does nothing when
// that is unset. Playwright's own reporter (list) still prints the run and its closing summary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

export default class FileTimes {
  byFile = new Map();

  onTestEnd(test, result) {
    const file = relative(process.cwd(), test.location.file);
    const f = this.byFile.get(file) ?? { file, ms: 0, state: 'passed' };
    f.ms += result.duration;
    if (result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted') f.state = 'failed';
    this.byFile.set(file, f);
  }

  onEnd() {
    const out = process.env.VERBATIM_TEST_TIMES;
    if (!out) return;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ files: [...this.byFile.values()] }, null, 1));
  }

  printsToStdio() {
    return false;
  }
}
