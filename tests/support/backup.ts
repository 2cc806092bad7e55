/**
 * Backups in tests: `resealBackup` writes a backup folder's manifest.json
 * again after a test changed its files, as anyone can (a manifest finds a
 * backup cut short or damaged; it is not a signature), so hostile rows reach
 * the restore's row checks.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function resealBackup(dir: string): void {
  const entry = (path: string) => {
    const bytes = readFileSync(path);
    return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  };
  const files: Record<string, { bytes: number; sha256: string }> = { 'library.json': entry(join(dir, 'library.json')) };
  for (const name of readdirSync(join(dir, 'audio'))) if (!name.startsWith('.')) files[`audio/${name}`] = entry(join(dir, 'audio', name));
  const tables = (JSON.parse(readFileSync(join(dir, 'library.json'), 'utf8')) as { tables: Record<string, unknown[]> }).tables;
  const counts = Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, rows.length]));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ format: 'verbatim-backup-manifest', version: 1, counts, files }));
}
