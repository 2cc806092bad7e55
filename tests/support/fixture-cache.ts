/**
 * Generated test fixtures that cost seconds of CPU to make (a bzip2 bomb compresses hundreds of MiB of zeros)
 * are made once and kept in a cache folder, keyed by a hash of everything that decides their bytes: later
 * uses in the same run, and later runs on the same machine, read the file instead. The key must name every
 * input that matters to the tests (and a version to bump when the maker changes), so the cache never hands a
 * test a fixture made differently; a half-written file is never seen (written beside it, then renamed).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIR = join(tmpdir(), 'verbatim-test-fixtures');

/** The fixture for `key` (every input of `make`, spelled out), made by `make` the first time. */
export function cachedFixture(key: string, make: () => Buffer): Buffer {
  const file = join(DIR, createHash('sha256').update(key).digest('hex'));
  try {
    return readFileSync(file);
  } catch {
    const bytes = make();
    mkdirSync(DIR, { recursive: true });
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, bytes);
    renameSync(part, file);
    return bytes;
  }
}
