/** Speaker diarization and voiceprints as routes and jobs see them (their sherpa-onnx implementation stays inside sherpa/): the services, their errors and limits. */
import type { ModelsFolder } from '../models/folder';
import { NativeChild } from '../native/child-host';
import { SHERPA_CHILD } from './sherpa/child-kinds';
import { createVoiceprints, type Voiceprints } from './sherpa/voiceprints';
export { createSpeakerLabels, DiarizationError, type DiarizeJob, type DiarizeResult, type SpeakerLabels } from './sherpa/diarize';
export type { InstalledModel } from './sherpa/diarize';
export { MAX_SPEAKERS } from './sherpa/diarize-plan';
export { createVoiceprints, VoiceprintError, type Voiceprints } from './sherpa/voiceprints';

/** Voiceprints over the models folder, in a native worker child of their own (started on first use). */
export function liveVoiceprints(models: ModelsFolder): Voiceprints {
  return createVoiceprints(models, new NativeChild({ ...SHERPA_CHILD, name: 'voiceprints' }));
}
