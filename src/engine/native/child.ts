/** The generic native worker entry: serves only the handler modules its host names (NativeChildOptions.modules); the engine's own workers have entries beside their handlers. */
import { serveChild } from './serve';

serveChild({});
