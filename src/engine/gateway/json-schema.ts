/**
 * A small JSON Schema checker for `response_format` (the subset models are
 * asked for in practice: type, properties, required, additionalProperties,
 * items, enum, const, lengths and bounds, anyOf/oneOf/allOf). Unknown
 * keywords are ignored, as validators do. A caller's schema is untrusted:
 * checkSchema bounds its depth, breadth and size before anything is asked
 * upstream, patterns run on RE2 (linear time, never backtracking), and each
 * validation has a budget of steps.
 */
import { RE2JS } from 're2js';

/** Nesting of the response_format value (any JSON), subschemas in all, branches of one anyOf/oneOf/allOf, enum/const entries in all, a pattern's length. */
export const SCHEMA_LIMITS = { depth: 32, subschemas: 1000, branches: 100, enumEntries: 1000, patternLength: 1000, steps: 50_000 } as const;

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

/** Compiled caller patterns (RE2: linear-time matching), a bounded cache. */
const compiled = new Map<string, RE2JS>();
function re2(pattern: string): RE2JS {
  let r = compiled.get(pattern);
  if (!r) {
    r = RE2JS.compile(pattern);
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, r);
  }
  return r;
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_ONE = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];

/**
 * Why a caller's response_format schema is refused (null when it may be used):
 * nested deeper than SCHEMA_LIMITS.depth, more subschemas, branches or enum
 * entries than allowed, or a pattern that is not valid (or needs
 * backtracking features RE2 leaves out, such as lookaround and backreferences).
 * Iterative, so no depth of input can overflow the stack.
 */
export function checkSchema(schema: unknown): string | null {
  const L = SCHEMA_LIMITS;
  // Any JSON nesting first (a 15,000-deep value would overflow every recursive walker after this).
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > L.depth) return `The response_format schema is nested deeper than ${L.depth} levels.`;
    for (const c of Array.isArray(v) ? v : Object.values(v)) if (c !== null && typeof c === 'object') stack.push([c, d + 1]);
  }
  let subschemas = 0;
  let enumEntries = 0;
  const todo: unknown[] = [schema];
  while (todo.length) {
    const s = todo.pop();
    if (s === null || typeof s !== 'object' || Array.isArray(s)) continue;
    if (++subschemas > L.subschemas) return `The response_format schema has more than ${L.subschemas} subschemas.`;
    const o = s as Record<string, unknown>;
    if (Array.isArray(o.enum)) enumEntries += o.enum.length;
    if ('const' in o) enumEntries++;
    if (enumEntries > L.enumEntries) return `The response_format schema lists more than ${L.enumEntries} enum or const values.`;
    if (o.pattern !== undefined) {
      if (typeof o.pattern !== 'string') return 'A pattern in the response_format schema must be a string.';
      if (o.pattern.length > L.patternLength) return `The pattern ${JSON.stringify(o.pattern.slice(0, 40))}… is longer than ${L.patternLength} characters.`;
      try {
        re2(o.pattern);
      } catch (err) {
        const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
        return `The pattern ${JSON.stringify(o.pattern)} in the response_format schema is not valid or not supported (${why}). Patterns run on RE2: no lookaround or backreferences.`;
      }
    }
    for (const k of SUBSCHEMA_LISTS) {
      const list = o[k];
      if (!Array.isArray(list)) continue;
      if (list.length > L.branches) return `${k} in the response_format schema has ${list.length} branches; at most ${L.branches} are allowed.`;
      todo.push(...list);
    }
    for (const k of SUBSCHEMA_MAPS) if (o[k] && typeof o[k] === 'object') todo.push(...Object.values(o[k] as object));
    for (const k of SUBSCHEMA_ONE) if (o[k] && typeof o[k] === 'object') todo.push(...(Array.isArray(o[k]) ? (o[k] as unknown[]) : [o[k]]));
  }
  return null;
}

class OverBudget extends Error {}

/**
 * Problems found (empty when the value conforms), each with a JSON path. A
 * validation that would take more than SCHEMA_LIMITS.steps steps (a wide
 * schema over a long answer) stops with one problem saying so.
 */
export function validateSchema(schema: Schema, value: unknown, path = '$'): string[] {
  const budget = { left: SCHEMA_LIMITS.steps };
  try {
    return validate(schema, value, path, budget);
  } catch (err) {
    if (err instanceof OverBudget) return [`checking the answer against the schema took more than ${SCHEMA_LIMITS.steps} steps, so it was stopped`];
    throw err;
  }
}

function validate(schema: Schema, value: unknown, path: string, budget: { left: number }): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path} is not allowed`];
  if (--budget.left < 0) throw new OverBudget();
  const s = schema;
  const errs: string[] = [];
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(t, value))) return [`${path} should be ${types.join(' or ')}, not ${typeOf(value)}`];
  }
  if (Array.isArray(s.enum)) {
    budget.left -= s.enum.length;
    const text = JSON.stringify(value);
    if (!s.enum.some((e) => JSON.stringify(e) === text)) errs.push(`${path} should be one of ${JSON.stringify(s.enum)}`);
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) errs.push(`${path} should be ${JSON.stringify(s.const)}`);
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) errs.push(`${path} is shorter than ${s.minLength}`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) errs.push(`${path} is longer than ${s.maxLength}`);
    if (typeof s.pattern === 'string') {
      budget.left -= Math.ceil(value.length / 64);
      if (budget.left < 0) throw new OverBudget();
      if (!re2(s.pattern).matcher(value).find()) errs.push(`${path} does not match ${s.pattern}`);
    }
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) errs.push(`${path} is below ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) errs.push(`${path} is above ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) errs.push(`${path} has fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) errs.push(`${path} has more than ${s.maxItems} items`);
    if (s.items !== undefined && !Array.isArray(s.items))
      for (let i = 0; i < value.length; i++) for (const e of validate(s.items as Schema, value[i], `${path}[${i}]`, budget)) errs.push(e);
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const r of Array.isArray(s.required) ? (s.required as string[]) : []) if (!(r in obj)) errs.push(`${path}.${r} is required`);
    for (const [k, v] of Object.entries(obj)) {
      if (Object.hasOwn(props, k)) errs.push(...validate(props[k] as Schema, v, `${path}.${k}`, budget));
      else if (s.additionalProperties === false) errs.push(`${path}.${k} is not allowed`);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        errs.push(...validate(s.additionalProperties as Schema, v, `${path}.${k}`, budget));
    }
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) errs.push(...validate(sub, value, path, budget));
  if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((sub) => validate(sub, value, path, budget).length === 0))
    errs.push(`${path} matches none of anyOf`);
  if (Array.isArray(s.oneOf) && (s.oneOf as Schema[]).filter((sub) => validate(sub, value, path, budget).length === 0).length !== 1)
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
