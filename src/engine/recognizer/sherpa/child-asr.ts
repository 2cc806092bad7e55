/** Speech recognition inside the native worker child (sherpa-onnx): load models on demand, decode PCM. */
export const handlers: Record<string, (payload: never) => unknown> = {};
