/** The entry of the sherpa-onnx worker child (speech recognition, diarization), forked by native/child-host.ts: serves the kinds listed beside their handlers. */
import { serveChild } from '../../native/serve';
import { KINDS } from './child-kinds';

serveChild(KINDS);
