import { describe, expect, it } from 'vitest';
import {
  CATALOG,
  catalogEntry,
  catalogEntrySchema,
  DEFAULT_FILES_MODEL,
  DEFAULT_LIVE_MODEL,
  MODEL_FILE_ROLES,
  SMALL_FILES_MODEL,
} from '../../../src/shared/models';

describe('model catalog', () => {
  it('every entry parses with catalogEntrySchema', () => {
    for (const entry of CATALOG) expect(() => catalogEntrySchema.parse(entry), entry.id).not.toThrow();
  });

  it('ids are unique', () => {
    const ids = CATALOG.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('each entry names exactly the files its family needs, inside its folder', () => {
    for (const entry of CATALOG) {
      expect(Object.keys(entry.files).sort(), entry.id).toEqual([...MODEL_FILE_ROLES[entry.family]].sort());
      for (const path of Object.values(entry.files)) expect(path.startsWith('/') || path.split('/').includes('..'), path).toBe(false);
    }
  });

  it('the defaults are in the catalog, for the right task', () => {
    expect(catalogEntry(DEFAULT_FILES_MODEL)?.task).toBe('files');
    expect(catalogEntry(SMALL_FILES_MODEL)?.task).toBe('files');
    expect(catalogEntry(DEFAULT_LIVE_MODEL)?.task).toBe('live');
    expect(catalogEntry('no-such-model')).toBeUndefined();
  });
});
