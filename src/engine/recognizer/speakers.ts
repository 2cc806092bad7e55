/** Speaker diarization as routes and jobs see it (its sherpa-onnx implementation stays inside sherpa/): the labels service, its errors and limits. */
export { createSpeakerLabels, DiarizationError, type DiarizeJob, type DiarizeResult, type SpeakerLabels } from './sherpa/diarize';
export { MAX_SPEAKERS } from './sherpa/diarize-plan';
