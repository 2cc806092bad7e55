/**
 * The kinds of native work the child process can do, by request prefix: `asr.load` runs `handlers.load`
 * of the module registered under `asr`. Modules load lazily, so a child pays only for the work it is given.
 */
export type Handler = (payload: never) => unknown;
export type HandlerModule = { handlers: Record<string, Handler> };

export const KINDS: Record<string, () => Promise<HandlerModule>> = {
  asr: () => import('../recognizer/sherpa/child-asr'),
  diarize: () => import('../recognizer/sherpa/child-diarize'),
};
