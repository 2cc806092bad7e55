/** Summary templates go into backups: a template made in one library comes back in another from its backup; one already there (same id) is left as it is. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-templates-backup-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('templates in backups', () => {
  it('round-trips a template through exportAll and importAll', async () => {
    const a = new Library(join(dir, 'a'));
    const t = a.templates.save({ name: 'Board meeting', sections: [{ title: 'Motions', instructions: 'Each motion and its vote.' }] });
    const backup = await a.backup.exportAll(join(dir, 'backup'));
    a.close();
    const b = new Library(join(dir, 'b'));
    await b.backup.importAll(backup.dir);
    expect(b.templates.get(t.id)).toMatchObject({
      name: 'Board meeting',
      sections: [{ title: 'Motions', instructions: 'Each motion and its vote.' }],
      builtIn: false,
    });
    // Imported again: the template that is already there stays one.
    await b.backup.importAll(backup.dir);
    expect(b.templates.list().filter((x) => x.name === 'Board meeting')).toHaveLength(1);
    b.close();
  });
});
