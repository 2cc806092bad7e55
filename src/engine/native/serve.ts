/**
 * The entry of the native worker child (forked by child-host.ts): answers `{id, kind, payload}` messages by
 * running the handler `kind` names, one request at a time per handler call; exits when the engine goes.
 */
import { pathToFileURL } from 'node:url';
import type { ChildRequest, ChildResponse } from './child-host';
import { KINDS, type Handler, type HandlerModule } from './kinds';

const extra: Record<string, string> = process.env.VERBATIM_NATIVE_MODULES ? (JSON.parse(process.env.VERBATIM_NATIVE_MODULES) as Record<string, string>) : {};
const loaded = new Map<string, Promise<HandlerModule>>();

function moduleFor(prefix: string): Promise<HandlerModule> | null {
  let m = loaded.get(prefix);
  if (m) return m;
  const file = extra[prefix];
  const load = file ? () => import(pathToFileURL(file).href) as Promise<HandlerModule> : KINDS[prefix];
  if (!load) return null;
  m = load();
  loaded.set(prefix, m);
  return m;
}

async function answer(req: ChildRequest): Promise<unknown> {
  const dot = req.kind.indexOf('.');
  const prefix = dot < 0 ? req.kind : req.kind.slice(0, dot);
  const mod = moduleFor(prefix);
  if (!mod) throw new Error(`no such kind of native work: ${req.kind}`);
  const handler: Handler | undefined = (await mod).handlers[req.kind.slice(dot + 1)];
  if (!handler) throw new Error(`no such kind of native work: ${req.kind}`);
  return await handler(req.payload as never);
}

process.on('message', (raw: unknown) => {
  const req = raw as ChildRequest;
  if (!req || typeof req.id !== 'number' || typeof req.kind !== 'string') return;
  answer(req).then(
    (result) => reply({ id: req.id, ok: true, result }),
    (err: unknown) => reply({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});

function reply(msg: ChildResponse): void {
  if (process.connected) process.send?.(msg);
}

// The engine went away (or closed the channel): nothing left to do.
process.on('disconnect', () => process.exit(0));
