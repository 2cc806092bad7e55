/**
 * The message loop of a native worker child (forked by child-host.ts): answers `{id, kind, payload}` messages by
 * running the handler `kind` names (`asr.load` runs `handlers.load` of the module registered under `asr`), and
 * exits when the engine goes. The entry script that calls it brings its own list of kinds, beside the handlers.
 */
import { pathToFileURL } from 'node:url';
import type { ChildRequest, ChildResponse } from './child-host';

export type Handler = (payload: never) => unknown;
export type HandlerModule = { handlers: Record<string, Handler> };
/** The kinds of work a child can do, by request prefix; modules load lazily, so a child pays only for the work it is given. */
export type HandlerKinds = Record<string, () => Promise<HandlerModule>>;

/** Serves `kinds` (and the test modules the host named in VERBATIM_NATIVE_MODULES) until the engine goes. */
export function serveChild(kinds: HandlerKinds): void {
  const extra: Record<string, string> = process.env.VERBATIM_NATIVE_MODULES ? (JSON.parse(process.env.VERBATIM_NATIVE_MODULES) as Record<string, string>) : {};
  const loaded = new Map<string, Promise<HandlerModule>>();

  const moduleFor = (prefix: string): Promise<HandlerModule> | null => {
    let m = loaded.get(prefix);
    if (m) return m;
    const file = extra[prefix];
    const load = file ? () => import(pathToFileURL(file).href) as Promise<HandlerModule> : kinds[prefix];
    if (!load) return null;
    m = load();
    loaded.set(prefix, m);
    return m;
  };

  const answer = async (req: ChildRequest): Promise<unknown> => {
    const dot = req.kind.indexOf('.');
    const prefix = dot < 0 ? req.kind : req.kind.slice(0, dot);
    const mod = moduleFor(prefix);
    if (!mod) throw new Error(`no such kind of native work: ${req.kind}`);
    const handler: Handler | undefined = (await mod).handlers[req.kind.slice(dot + 1)];
    if (!handler) throw new Error(`no such kind of native work: ${req.kind}`);
    return await handler(req.payload as never);
  };

  const reply = (msg: ChildResponse): void => {
    if (process.connected) process.send?.(msg);
  };

  process.on('message', (raw: unknown) => {
    const req = raw as ChildRequest;
    if (!req || typeof req.id !== 'number' || typeof req.kind !== 'string') return;
    answer(req).then(
      (result) => reply({ id: req.id, ok: true, result }),
      (err: unknown) => reply({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });

  // The engine went away (or closed the channel): nothing left to do.
  process.on('disconnect', () => process.exit(0));
}
