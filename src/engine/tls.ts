/**
 * Plain HTTP or HTTPS (with `--tls-cert/--tls-key`, PEM files) for the engine:
 * the official SDK's StreamingTranscriber only connects to `wss:` URLs.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

export interface TlsFiles {
  /** Path of the PEM certificate (chain). */
  cert: string;
  /** Path of the PEM private key. */
  key: string;
}

export function createEngineServer(tls: TlsFiles | undefined, handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  if (!tls) return createHttpServer(handler);
  let cert: Buffer;
  let key: Buffer;
  try {
    cert = readFileSync(tls.cert);
    key = readFileSync(tls.key);
  } catch (err) {
    throw new Error(`cannot read the TLS certificate or key (${err instanceof Error ? err.message : String(err)}); check --tls-cert and --tls-key`, {
      cause: err,
    });
  }
  // https.Server has the http.Server API the engine uses (listen, close, closeAllConnections, upgrade events).
  return createHttpsServer({ cert, key }, handler) as unknown as Server;
}
