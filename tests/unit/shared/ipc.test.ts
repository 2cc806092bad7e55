import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { channels, channelNames, events, isChannel, isEventName } from '../../../src/shared/ipc';

/** Most elements any array in a channel's input may hold: what crosses is what the user did, never a whole document (issue 38). */
const MAX_INPUT_ARRAY = 5_000;

type Def = { type: string; checks?: { _zod: { def: { check: string; maximum?: number } } }[] } & Record<string, unknown>;
const defOf = (s: unknown): Def => (s as z.ZodType)._zod.def as unknown as Def;

/** Every place in a schema that admits more than MAX_INPUT_ARRAY elements (an array or a record without such a bound, or a check zod cannot show), by path. */
function unbounded(schema: unknown, path: string, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const d = defOf(schema);
  const walk = (s: unknown, p: string) => unbounded(s, p, seen);
  switch (d.type) {
    case 'array': {
      const max = (d.checks ?? []).map((c) => c._zod.def).find((c) => c.check === 'max_length')?.maximum;
      const here = max === undefined || max > MAX_INPUT_ARRAY ? [`${path}[] (${max === undefined ? 'no max' : `max ${max}`})`] : [];
      return [...here, ...walk(d.element, `${path}[]`)];
    }
    case 'object':
      return [
        ...Object.entries(d.shape as Record<string, unknown>).flatMap(([k, v]) => walk(v, `${path}.${k}`)),
        ...(d.catchall && defOf(d.catchall).type !== 'never' ? [`${path}.* (any number of keys)`] : []),
      ];
    case 'record': {
      const key = defOf(d.keyType).type;
      return [...(key === 'enum' || key === 'literal' ? [] : [`${path}{} (any number of keys)`]), ...walk(d.valueType, `${path}{}`)];
    }
    case 'tuple':
      return [...(d.items as unknown[]).flatMap((s, i) => walk(s, `${path}[${i}]`)), ...(d.rest ? [`${path}[...] (a rest of any length)`] : [])];
    case 'union':
      return (d.options as unknown[]).flatMap((s, i) => walk(s, `${path}|${i}`));
    case 'intersection':
      return [...walk(d.left, path), ...walk(d.right, path)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return walk(d.innerType, path);
    case 'pipe':
      return [...walk(d.in, path), ...walk(d.out, path)];
    case 'lazy':
      return walk((d.getter as () => unknown)(), path);
    case 'custom':
    case 'any':
    case 'unknown':
      return [`${path} (a ${d.type} check: its size cannot be read)`];
    default:
      return [];
  }
}
import { defaultSettings, settingsPatchSchema, settingsSchema } from '../../../src/shared/settings';
import { fileRefSchema } from '../../../src/shared/ipc/files';

/** A field that names a file by itself (a path, an upload id) instead of through fileRefSchema. */
const FILE_FIELD = /^(path|paths|uploadId|uploadIds|file|files|[a-z]+(Path|Paths|File|UploadId))$/;
/** Fields named like a file that are not one the user hands in: a watch folder, an export main saved (to show in its folder), the model for files. */
const NOT_A_FILE = new Set(['watch.add.path', 'library.revealExport.path', 'settings.set.models.files']);

/** Every field of a channel's input that names a file other than through fileRefSchema, by path. */
function fileFields(schema: unknown, path: string, seen = new Set<unknown>()): string[] {
  if (schema === fileRefSchema || seen.has(schema)) return [];
  seen.add(schema);
  const d = defOf(schema);
  const walk = (s: unknown, p: string) => fileFields(s, p, seen);
  switch (d.type) {
    case 'object':
      return Object.entries(d.shape as Record<string, unknown>).flatMap(([k, v]) => {
        const here = `${path}.${k}`;
        const inner = walk(v, here);
        // A field named like a file is fine only when what it holds is a FileRef (or FileRefs).
        const isRef = refOnly(v);
        return [...(FILE_FIELD.test(k) && !isRef && !NOT_A_FILE.has(here) ? [here] : []), ...inner];
      });
    case 'array':
      return walk(d.element, `${path}[]`);
    case 'union':
      return (d.options as unknown[]).flatMap((s, i) => walk(s, `${path}|${i}`));
    case 'intersection':
      return [...walk(d.left, path), ...walk(d.right, path)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return walk(d.innerType, path);
    case 'pipe':
      return [...walk(d.in, path), ...walk(d.out, path)];
    case 'lazy':
      return walk((d.getter as () => unknown)(), path);
    default:
      return [];
  }
}

/** Whether a schema is fileRefSchema, maybe optional, nullable or in an array. */
function refOnly(s: unknown): boolean {
  if (s === fileRefSchema) return true;
  const d = defOf(s);
  if (d.type === 'array') return refOnly(d.element);
  if (['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(d.type)) return refOnly(d.innerType);
  if (d.type === 'pipe') return refOnly(d.in);
  return false;
}

describe('IPC contract', () => {
  it('lists every channel with an input and an output schema', () => {
    for (const name of channelNames) {
      const spec = channels[name];
      expect(typeof spec.input.safeParse).toBe('function');
      expect(typeof spec.output.safeParse).toBe('function');
    }
    expect(channelNames).toEqual(expect.arrayContaining(['app.info', 'settings.get', 'settings.set']));
  });

  it(`admits no array of more than ${MAX_INPUT_ARRAY.toLocaleString('en')} elements in any channel's input`, () => {
    const found = channelNames.flatMap((name) => unbounded(channels[name].input, name));
    expect(found).toEqual([]);
    // The walk sees what it must: an array with no bound, or a bound too high, anywhere down a schema.
    const probe = (extra: Record<string, unknown>) => ({ _zod: { def: { type: 'object', shape: extra } } });
    const arr = (max?: number) => ({
      _zod: {
        def: {
          type: 'array',
          element: { _zod: { def: { type: 'number' } } },
          checks: max === undefined ? [] : [{ _zod: { def: { check: 'max_length', maximum: max } } }],
        },
      },
    });
    expect(unbounded(probe({ a: arr(), b: arr(200_000), c: arr(5_000) }), 'x')).toEqual(['x.a[] (no max)', 'x.b[] (max 200000)']);
  });

  it('names every file the user hands in through fileRefSchema (a path or an upload id), in every channel', () => {
    const found = channelNames.flatMap((name) => fileFields(channels[name].input, name));
    expect(found).toEqual([]);
    // The walk sees what it must: a path, an upload id or a path list beside a FileRef, anywhere down a schema.
    const obj = (shape: Record<string, unknown>) => ({ _zod: { def: { type: 'object', shape } } });
    const str = { _zod: { def: { type: 'string' } } };
    const arr = (element: unknown) => ({ _zod: { def: { type: 'array', element } } });
    expect(
      fileFields(obj({ a: obj({ path: str, uploadId: str, mediaPath: str }), files: arr(str), ok: arr(fileRefSchema), file: fileRefSchema }), 'x'),
    ).toEqual(['x.a.path', 'x.a.uploadId', 'x.a.mediaPath', 'x.files']);
  });

  it('recognises only contract names', () => {
    expect(isChannel('settings.get')).toBe(true);
    expect(isChannel('toString')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isEventName('settings.changed')).toBe(true);
    expect(isEventName('constructor')).toBe(false);
    expect(Object.keys(events)).toContain('settings.changed');
  });

  it('rejects malformed settings input', () => {
    expect(channels['settings.set'].input.safeParse({ theme: 'purple' }).success).toBe(false);
    expect(channels['settings.set'].input.safeParse({ region: 'mars' }).success).toBe(false);
    expect(channels['settings.set'].input.safeParse({ unknownField: 1 }).success).toBe(false);
    expect(channels['settings.set'].input.safeParse('dark').success).toBe(false);
    expect(channels['settings.set'].input.safeParse({ theme: 'dark' }).success).toBe(true);
  });

  it('takes no input where none is declared', () => {
    expect(channels['settings.get'].input.safeParse(undefined).success).toBe(true);
    expect(channels['settings.get'].input.safeParse({ sneaky: true }).success).toBe(false);
  });

  it('fills every setting with a default', () => {
    expect(settingsSchema.parse({})).toEqual(defaultSettings);
    expect(defaultSettings.theme).toBe('system');
    expect(settingsPatchSchema.parse({})).toEqual({});
  });
});
