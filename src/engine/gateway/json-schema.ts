/**
 * A small JSON Schema checker for `response_format` (the subset models are
 * asked for in practice: type, properties, required, additionalProperties,
 * items, enum, const, lengths and bounds, anyOf/oneOf/allOf). Unknown
 * keywords are ignored, as validators do.
 */

type Schema = Record<string, unknown> | boolean;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(want: string, v: unknown): boolean {
  const t = typeOf(v);
  return want === t || (want === 'number' && t === 'integer');
}

/** Problems found (empty when the value conforms), each with a JSON path. */
export function validateSchema(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path} is not allowed`];
  const s = schema;
  const errs: string[] = [];
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(t, value))) return [`${path} should be ${types.join(' or ')}, not ${typeOf(value)}`];
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    errs.push(`${path} should be one of ${JSON.stringify(s.enum)}`);
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) errs.push(`${path} should be ${JSON.stringify(s.const)}`);
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) errs.push(`${path} is shorter than ${s.minLength}`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) errs.push(`${path} is longer than ${s.maxLength}`);
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) errs.push(`${path} does not match ${s.pattern}`);
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) errs.push(`${path} is below ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) errs.push(`${path} is above ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) errs.push(`${path} has fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) errs.push(`${path} has more than ${s.maxItems} items`);
    if (s.items !== undefined && !Array.isArray(s.items)) value.forEach((v, i) => errs.push(...validateSchema(s.items as Schema, v, `${path}[${i}]`)));
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const r of Array.isArray(s.required) ? (s.required as string[]) : []) if (!(r in obj)) errs.push(`${path}.${r} is required`);
    for (const [k, v] of Object.entries(obj)) {
      if (k in props) errs.push(...validateSchema(props[k] as Schema, v, `${path}.${k}`));
      else if (s.additionalProperties === false) errs.push(`${path}.${k} is not allowed`);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        errs.push(...validateSchema(s.additionalProperties as Schema, v, `${path}.${k}`));
    }
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) errs.push(...validateSchema(sub, value, path));
  if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((sub) => validateSchema(sub, value, path).length === 0)) errs.push(`${path} matches none of anyOf`);
  if (Array.isArray(s.oneOf) && (s.oneOf as Schema[]).filter((sub) => validateSchema(sub, value, path).length === 0).length !== 1)
    errs.push(`${path} should match exactly one of oneOf`);
  return errs;
}

/** Parses a model's JSON answer, tolerating a ```json fence around it. */
export function parseModelJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const t = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch (err) {
    return { ok: false, error: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
}
