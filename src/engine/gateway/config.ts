/**
 * Gateway configuration: OpenAI-compatible upstreams and rate limits, from
 * `<data>/gateway.json` and the engine's options (CLI flags win).
 *
 * gateway.json:
 * { "upstreams": [{ "baseUrl": "http://127.0.0.1:11434/v1", "apiKey": null, "models": ["llama3.2"], "tools": true }],
 *   "limits": { "llama3.2": 10 }, "defaultLimit": 30, "understandingModel": "llama3.2" }
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { LocalModelOptions } from './llama';

const upstreamSchema = z.object({
  baseUrl: z.string().url(),
  apiKey: z.string().nullable().optional(),
  models: z
    .array(
      z.union([
        z.string().min(1),
        z.object({
          id: z.string().min(1),
          name: z.string().optional(),
          description: z.string().optional(),
          context_length: z.number().int().positive().optional(),
        }),
      ]),
    )
    .min(1),
  tools: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
});

export const gatewayConfigSchema = z.object({
  upstreams: z.array(upstreamSchema).default([]),
  limits: z.record(z.string(), z.number().int().min(0)).default({}),
  defaultLimit: z.number().int().min(0).default(30),
  /** Model used for translation and speaker identification (default: the first upstream model). */
  understandingModel: z.string().optional(),
});

/** Local GGUF models (llama.ts): the models folder defaults to `<data>/models`; idle time, queue, threads and free memory are options, not gateway.json keys. */
export type GatewayConfig = z.infer<typeof gatewayConfigSchema> & { local?: LocalModelOptions; testRateWindow?: TestRateWindow };
export type GatewayOptions = Partial<z.input<typeof gatewayConfigSchema>> & { local?: LocalModelOptions; testRateWindow?: TestRateWindow };

/** Test only (never from gateway.json): the limiter's window, and how soon a refusal's window ends (its Retry-After). */
export interface TestRateWindow {
  windowMs: number;
  refusedResetMs: number;
}

export const GATEWAY_CONFIG_FILE = 'gateway.json';

export function loadGatewayConfig(dataDir: string, opts: GatewayOptions = {}): GatewayConfig {
  const file = join(dataDir, GATEWAY_CONFIG_FILE);
  let fromFile: unknown = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file} is not valid JSON (${err instanceof Error ? err.message : String(err)}); fix or remove it.`, { cause: err });
    }
  }
  const base = gatewayConfigSchema.safeParse(fromFile);
  if (!base.success)
    throw new Error(`${file} is not a valid gateway configuration: ${base.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const cli = gatewayConfigSchema.partial().safeParse(opts);
  if (!cli.success) throw new Error(`invalid gateway options: ${cli.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const o = cli.data;
  return {
    upstreams: [...(o.upstreams ?? []), ...base.data.upstreams],
    limits: { ...base.data.limits, ...(o.limits ?? {}) },
    defaultLimit: o.defaultLimit ?? base.data.defaultLimit,
    understandingModel: o.understandingModel ?? base.data.understandingModel,
    local: { ...opts.local, modelsDir: opts.local?.modelsDir ?? opts.local?.models?.dir ?? join(dataDir, 'models') },
    ...(opts.testRateWindow ? { testRateWindow: opts.testRateWindow } : {}),
  };
}
