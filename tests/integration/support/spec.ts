/**
 * AssemblyAI's published specification as a validator: the three files of
 * AssemblyAI/assemblyai-api-spec, read from VERBATIM_API_SPEC_DIR (default
 * ../shared/api-spec beside the repository, never committed here),
 * dereferenced and compiled with ajv (JSON Schema 2020-12, OpenAPI 3.1's
 * dialect) per operation and status.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export const SPEC_FILES = ['openapi.yml', 'llm-gateway.yml', 'usm-streaming.yml', 'usm-streaming-u3-pro.yml'] as const;
export type SpecFile = (typeof SPEC_FILES)[number];

export const SPEC_DIR = resolve(process.env.VERBATIM_API_SPEC_DIR ?? resolve(import.meta.dirname, '../../../../shared/api-spec'));

export function missingSpecFiles(): string[] {
  return SPEC_FILES.filter((f) => !existsSync(join(SPEC_DIR, f)));
}

type Json = Record<string, unknown>;

/** A place in a dereferenced document, as keys from its root. */
export type SpecPath = readonly string[];

/** A change to the published schema before it is compiled: each one is an exception the test file lists with its reason. */
export interface SpecException {
  file: SpecFile;
  at: SpecPath;
  change: 'oneOf-to-anyOf' | 'drop-additionalProperties-false' | 'allow-null';
  reason: string;
}

function walk(doc: Json, at: SpecPath): Json {
  let node: unknown = doc;
  for (const k of at) {
    node = (node as Json | undefined)?.[k];
    if (node === undefined) throw new Error(`The spec has no ${at.join('.')} (was it updated? check the exception list).`);
  }
  return node as Json;
}

function apply(doc: Json, e: SpecException): void {
  const node = walk(doc, e.at);
  if (e.change === 'oneOf-to-anyOf') {
    if (!Array.isArray(node.oneOf)) throw new Error(`${e.at.join('.')} has no oneOf`);
    node.anyOf = node.oneOf;
    delete node.oneOf;
  } else if (e.change === 'drop-additionalProperties-false') {
    if (node.additionalProperties !== false) throw new Error(`${e.at.join('.')} is not closed`);
    delete node.additionalProperties;
  } else {
    const t = node.type;
    node.type = Array.isArray(t) ? [...new Set([...(t as string[]), 'null'])] : t === undefined ? undefined : [t, 'null'];
    if (node.type === undefined) {
      const copy = { ...node };
      for (const k of Object.keys(node)) delete node[k];
      node.anyOf = [copy, { type: 'null' }];
    }
  }
}

export interface Spec {
  docs: Record<SpecFile, Json>;
  /** Checks one answer; the list of problems is empty when it matches. */
  check(file: SpecFile, schemaAt: SpecPath, value: unknown): string[];
  /** The schema of an operation's answer: `paths.<path>.<method>.responses.<status or default>.content.<type>.schema`. */
  response(file: SpecFile, path: string, method: string, status: number, type?: string): SpecPath;
}

export async function loadSpec(exceptions: readonly SpecException[]): Promise<Spec> {
  const docs = {
    'openapi.yml': (await SwaggerParser.dereference(join(SPEC_DIR, 'openapi.yml'))) as unknown as Json,
    'llm-gateway.yml': (await SwaggerParser.dereference(join(SPEC_DIR, 'llm-gateway.yml'))) as unknown as Json,
    // AsyncAPI: swagger-parser refuses a document that is not OpenAPI, so its $refs are resolved by the parser it is built on.
    'usm-streaming.yml': (await $RefParser.dereference(join(SPEC_DIR, 'usm-streaming.yml'))) as unknown as Json,
    'usm-streaming-u3-pro.yml': (await $RefParser.dereference(join(SPEC_DIR, 'usm-streaming-u3-pro.yml'))) as unknown as Json,
  } satisfies Record<SpecFile, Json>;
  for (const e of exceptions) apply(docs[e.file], e);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // OpenAPI's and the spec's own format names: numeric widths and units say nothing a validator checks; url is a URL.
  for (const f of ['float', 'double', 'int32', 'int64', 'ms', 's', 'binary']) ajv.addFormat(f, true);
  ajv.addFormat('url', /^[a-z][a-z0-9+.-]*:\/\/\S+$/i);
  const compiled = new Map<string, ValidateFunction>();
  const text = (errs: ErrorObject[] | null | undefined) =>
    (errs ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  return {
    docs,
    check(file, at, value) {
      const key = `${file}#${at.join('/')}`;
      let v = compiled.get(key);
      if (!v) {
        v = ajv.compile(walk(docs[file], at));
        compiled.set(key, v);
      }
      return v(value) ? [] : text(v.errors);
    },
    response(file, path, method, status, type = 'application/json') {
      const responses = walk(docs[file], ['paths', path, method, 'responses']);
      const code = String(status) in responses ? String(status) : 'default';
      if (!(code in responses)) throw new Error(`${file}: ${method.toUpperCase()} ${path} documents no ${status} answer`);
      return ['paths', path, method, 'responses', code, 'content', type, 'schema'];
    },
  };
}
