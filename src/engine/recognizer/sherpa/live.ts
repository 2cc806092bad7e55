/**
 * The model of a live session (/v3/ws): `speech_model=<id>` naming an installed model, else the engine's
 * default live model when one is configured (`--live-model`), else PocketSphinx. A model that is not
 * installed or will not load closes the session with a reason saying what to do.
 */
import { resolveServiceModel } from '../../../shared/api/service-models';
import { BUILTIN_SPEECH_MODEL } from '../../../shared/models/catalog';
import type { RecognizerStream } from '../types';
import { LocalModelError } from './recognizer';
import type { ModelRegistry } from './registry';
import { ModelFileError } from './validate';

/** The session cannot use the model it asked for; the message is the close reason. */
export class LiveModelError extends Error {}

/**
 * The local model a /v3/ws query asks for (null: PocketSphinx), the AssemblyAI model it named (an alias or a
 * retired id routed to the model that replaces it; null when it named none or a local one), and the query
 * left for the wire schema. An AssemblyAI id runs `defaultLive`: the engine's live model, else its best installed one.
 */
export function liveModelOf(query: URLSearchParams, defaultLive?: string | null): { name: string | null; query: URLSearchParams; cloud: string | null } {
  const asked = query.get('speech_model');
  if (asked === null) return { name: defaultLive ?? null, query, cloud: null };
  const rest = new URLSearchParams(query);
  rest.delete('speech_model');
  const cloud = resolveServiceModel('streaming', asked);
  if (cloud) return { name: defaultLive ?? null, query: rest, cloud: cloud.id };
  return { name: asked === BUILTIN_SPEECH_MODEL ? null : asked, query: rest, cloud: null };
}

/** Opens a live stream on the installed model `name`; `onSlow` hears once when it decodes slower than real time. */
export async function openLiveModel(
  registry: ModelRegistry,
  name: string,
  keyterms: string[],
  onSlow: (message: string) => void,
  slowRtf = 1,
): Promise<RecognizerStream> {
  const manifest = await registry.find(name);
  if (!manifest) throw new LiveModelError(`speech_model ${name.slice(0, 40)} is not installed; download it in Settings → Models`);
  try {
    const rec = await registry.recognizer(name);
    if (!rec.streaming) await rec.prewarm();
    return await rec.openStream({
      keyterms,
      slowRtf,
      onSlow: (rtf) =>
        onSlow(
          `The live model ${name} decodes slower than real time on this machine (${rtf}× the audio's length), so captions fall behind. Choose a smaller or streaming model for live captions in Settings → Models.`,
        ),
    });
  } catch (err) {
    if (err instanceof LocalModelError || err instanceof ModelFileError)
      throw new LiveModelError(`speech_model ${name.slice(0, 40)} failed to load; reinstall it in Settings → Models`);
    throw err;
  }
}
