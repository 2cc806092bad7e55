/**
 * The sherpa-onnx worker's kinds of work, beside their handlers: `asr.load` runs `handlers.load` of child-asr.ts,
 * `diarize.run` that of child-diarize.ts. Modules load lazily, so a child pays only for the work it is given.
 * native-child.ts serves them; SHERPA_CHILD is where a NativeChild finds that entry.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildScript } from '../../native/entry';
import type { HandlerKinds } from '../../native/serve';

export const KINDS: HandlerKinds = {
  asr: () => import('./child-asr'),
  diarize: () => import('./child-diarize'),
  voice: () => import('./child-voice'),
};

/** The entry of the sherpa-onnx worker: native-child.ts here, `native-child.js|.mjs` beside a bundle. */
export const SHERPA_CHILD: { entry: ChildScript } = { entry: { name: 'native-child', sourceDir: dirname(fileURLToPath(import.meta.url)) } };
