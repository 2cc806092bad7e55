/**
 * The typed `handle` of DESIGN.md §3. Every request is checked against the
 * contract: the sender first, then the input schema; the handler's answer is
 * validated against the output schema before it leaves main. Errors are
 * answered as `{code, message}`, never as stack traces.
 */
import type { z } from 'zod';
import { describeIssues } from '../../shared/bridge-request';
import { AppError } from '../../shared/errors';
import { SubtitleDocJson } from './open-json';
import { channels, events, isChannel, type Channel, type EventName, type Output, type Payload, type Reply } from '../../shared/ipc';

/** Who sent a request: an Electron frame (by URL) or a host-mode socket. */
export type Sender = { kind: 'electron'; frameUrl: string } | { kind: 'host'; tokenValid: boolean };

export interface HandlerContext {
  sender: Sender;
  /** The transport sends answers as JSON text (host mode's bridge): subtitles.open may then answer JSON its worker wrote and checked (open-json.ts). */
  jsonText?: boolean;
}

type Handler<C extends Channel> = (input: z.output<(typeof channels)[C]['input']>, ctx: HandlerContext) => Output<C> | Promise<Output<C>>;
type AnyHandler = (input: unknown, ctx: HandlerContext) => unknown;

export type EventListener = (event: EventName, payload: unknown) => void;

export interface Logger {
  error(message: string, detail?: unknown): void;
}

export class Router {
  private readonly handlers = new Map<Channel, AnyHandler>();
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly isTrustedSender: (sender: Sender) => boolean,
    private readonly log: Logger = { error: (m, d) => console.error(m, d) },
  ) {}

  handle<C extends Channel>(channel: C, handler: Handler<C>): void {
    if (this.handlers.has(channel)) throw new Error(`A handler for ${channel} is already registered`);
    this.handlers.set(channel, handler as AnyHandler);
  }

  registered(): Channel[] {
    return [...this.handlers.keys()];
  }

  async dispatch(channel: unknown, input: unknown, ctx: HandlerContext): Promise<Reply> {
    if (!this.isTrustedSender(ctx.sender)) {
      return fail('forbidden', 'This window is not allowed to talk to Verbatim.');
    }
    if (!isChannel(channel)) {
      return fail('bad_request', `Unknown channel: ${String(channel).slice(0, 80)}`);
    }
    const handler = this.handlers.get(channel);
    if (!handler) return fail('unavailable', `${channel} is not available in this build.`);

    const spec = channels[channel];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      return fail('bad_request', `Invalid input for ${channel}: ${describeIssues(parsed.error)}`);
    }
    let result: unknown;
    try {
      result = await handler(parsed.data, ctx);
    } catch (err) {
      if (err instanceof AppError) return { ok: false, error: err.toInfo() };
      this.log.error(`Handler ${channel} failed`, err);
      return fail('internal', 'Something went wrong inside Verbatim. Try again; if it keeps happening, restart the app.');
    }
    // subtitles.open's 200,000 cues, written and checked with this same schema on the library's worker (open-json.ts).
    if (channel === 'subtitles.open' && result instanceof SubtitleDocJson) return { ok: true, output: result as unknown as Output<typeof channel> };
    const out = spec.output.safeParse(result);
    if (!out.success) {
      this.log.error(`Handler ${channel} answered outside its schema`, out.error.issues);
      return fail('invalid_output', `Verbatim produced an invalid answer for ${channel}.`);
    }
    return { ok: true, output: out.data };
  }

  emit<E extends EventName>(event: E, payload: Payload<E>): void {
    const parsed = events[event].safeParse(payload);
    if (!parsed.success) {
      this.log.error(`Event ${event} payload outside its schema`, parsed.error.issues);
      return;
    }
    for (const listener of this.listeners) listener(event, parsed.data);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function fail(code: 'bad_request' | 'forbidden' | 'unavailable' | 'internal' | 'invalid_output', message: string): Reply {
  return { ok: false, error: { code, message } };
}
