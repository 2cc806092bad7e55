/**
 * Host mode's warm-up (issue 29: cold start): once the services are up, and
 * while the browser is still loading the page, runs the calls a window makes
 * when it connects, answers discarded, so that the window's own first calls
 * are not also the runs that compile their handlers and their schemas'
 * parsers (zod builds a parser per object schema on its first parse: ~30 ms
 * for these ten). All read-only; a call that fails is only a call not warmed.
 */
import type { Router } from '../ipc/router';

/** What the renderer's stores ask for when a window connects (src/renderer/src/main.tsx, each store's connectX). */
export const FIRST_CALLS: ReadonlyArray<readonly [channel: string, input: unknown]> = [
  ['app.info', undefined],
  ['settings.get', undefined],
  ['keys.status', undefined],
  ['engine.status', undefined],
  ['models.list', undefined],
  ['jobs.list', { includeFinished: true, limit: 200 }],
  ['library.list', { sort: 'created', order: 'desc', offset: 0, limit: 100 }],
  ['library.tags', undefined],
  ['captions.current', undefined],
  ['chat.list', {}],
];

/** Runs FIRST_CALLS one at a time, letting the event loop turn between them (a real request is never held behind more than one). */
export async function warmUp(router: Router): Promise<void> {
  for (const [channel, input] of FIRST_CALLS) {
    await router.dispatch(channel, input, { sender: { kind: 'host', tokenValid: true } });
    await new Promise((r) => setImmediate(r));
  }
}
