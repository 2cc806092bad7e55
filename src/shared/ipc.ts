/**
 * The app's IPC contract: every request channel with its input and output
 * schemas, every event with its payload schema. Main validates against it,
 * preload exposes only these names, the renderer's client is typed from it.
 * Both transports (Electron IPC and the host-mode WebSocket) carry exactly
 * these messages.
 */
import { z } from 'zod';
import { errorCodes, type ErrorInfo } from './errors';
import { settingsPatchSchema, settingsSchema } from './settings';

const none = z.undefined();

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  mode: z.enum(['electron', 'host']),
  dataDir: z.string(),
  versions: z.object({ node: z.string(), electron: z.string().nullable(), chrome: z.string().nullable() }),
  /** System packages the local engine needs and that are missing on this machine. */
  missingEnginePackages: z.array(z.string()),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const channels = {
  'app.info': { input: none, output: appInfoSchema },
  'settings.get': { input: none, output: settingsSchema },
  'settings.set': { input: settingsPatchSchema, output: settingsSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'settings.changed': settingsSchema,
} as const satisfies Record<string, z.ZodType>;

export type Channel = keyof typeof channels;
export type EventName = keyof typeof events;
export type Input<C extends Channel> = z.input<(typeof channels)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof channels)[C]['output']>;
export type Payload<E extends EventName> = z.output<(typeof events)[E]>;

export const channelNames = Object.keys(channels) as Channel[];
export const eventNames = Object.keys(events) as EventName[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

export const errorInfoSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  retryAfter: z.number().optional(),
});

/** What a handler answers over any transport. */
export type Reply<T = unknown> = { ok: true; output: T } | { ok: false; error: ErrorInfo };

/** The API the renderer sees, whichever transport carries it. */
export interface VerbatimApi {
  invoke<C extends Channel>(channel: C, ...input: Input<C> extends undefined ? [input?: Input<C>] : [input: Input<C>]): Promise<Output<C>>;
  on<E extends EventName>(event: E, listener: (payload: Payload<E>) => void): () => void;
}

/** Raw API exposed by the preload: no types, the renderer's bridge adds them. */
export interface RawBridge {
  invoke(channel: string, input: unknown): Promise<Reply>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** Host-mode wire messages over the bridge WebSocket (DESIGN.md §3). */
export const bridgeRequestSchema = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string(),
  input: z.unknown().optional(),
});
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export type BridgeResponse =
  | { id: number; output: unknown }
  | { id: number; error: ErrorInfo }
  | { event: string; payload: unknown };
