/**
 * A VerbatimApi for store tests: each channel answers from a handler the test
 * gives, every input and output is checked against the IPC contract's zod
 * schemas (as main and the bridge would), and the test emits events itself.
 */
import { AppError } from '../../../../src/shared/errors';
import { channels, events, type Channel, type EventName, type Input, type Output, type Payload, type VerbatimApi } from '../../../../src/shared/ipc';

type Handler<C extends Channel> = (input: Input<C>) => Output<C> | Promise<Output<C>>;

export class FakeApi implements VerbatimApi {
  /** Every request, in order, with its input as parsed by the contract. */
  readonly calls: { channel: Channel; input: unknown }[] = [];
  private readonly handlers = new Map<Channel, (input: unknown) => unknown>();
  private readonly listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  handle<C extends Channel>(channel: C, fn: Handler<C>): this {
    this.handlers.set(channel, fn as (input: unknown) => unknown);
    return this;
  }

  invoke<C extends Channel>(channel: C, ...args: Input<C> extends undefined ? [input?: Input<C>] : [input: Input<C>]): Promise<Output<C>> {
    return (async () => {
      const input = channels[channel].input.parse(args[0]);
      this.calls.push({ channel, input });
      const fn = this.handlers.get(channel);
      if (!fn) throw new AppError('unavailable', `The fake api has no handler for ${channel}.`);
      return channels[channel].output.parse(await fn(input)) as Output<C>;
    })();
  }

  on<E extends EventName>(event: E, listener: (payload: Payload<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => void set.delete(l);
  }

  /** Sends an event to the store, checked against the contract first. */
  emit<E extends EventName>(event: E, payload: Payload<E>): void {
    const parsed = events[event].parse(payload);
    for (const l of this.listeners.get(event) ?? []) l(parsed);
  }

  listenerCount(event?: EventName): number {
    if (event) return this.listeners.get(event)?.size ?? 0;
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }

  callsTo(channel: Channel): unknown[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.input);
  }
}
