/**
 * Error bodies by product: REST and streaming answer `{error: "…"}` (API.md
 * §1, openapi.yml's Error); the LLM gateway under /v1 answers
 * `{error: {message, type, code, param}}` (llm-gateway.yml's ErrorResponse,
 * what OpenAI's clients read), with code the HTTP status.
 */
import type { GatewayErrorBody } from '../../shared/api/gateway';

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function isGatewayPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/');
}

export function gatewayError(status: number, message: string): GatewayErrorBody {
  return { error: { message, type: errorType(status), code: status, param: null } };
}

/** The Sync and Dictation APIs' routes (routes/sync.ts). */
export function isSyncPath(pathname: string): boolean {
  return ['/v1/warm', '/warm', '/v1/transcribe', '/transcribe'].includes(pathname) || pathname.startsWith('/v1/transcribe/');
}

const CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'audio_too_large',
  415: 'unsupported_media_type',
  503: 'capacity_exceeded',
};

/**
 * The Sync and Dictation APIs' error, as AssemblyAI's Sync "Error handling" page gives it: `{error_code,
 * message}` for audio, request, capacity and inference errors, `{detail}` for auth and rate limits (the SDK's
 * SyncTranscriptError / DictationError read both), with `error` beside for clients that read that.
 */
export type ProblemBody = { error_code: string; message: string; error: string } | { detail: string; error: string };

export function problemBody(status: number, message: string, code?: string): ProblemBody {
  if (status === 401 || status === 403 || status === 429) return { detail: message, error: message };
  return { error_code: code ?? CODES[status] ?? (status >= 500 ? 'inference_error' : 'bad_request'), message, error: message };
}

/**
 * The error body for a path: problem details on the Sync and Dictation routes; the gateway's shape under /v1,
 * with the message also at the top (`message`), where the SDK's LlmGatewayError reads it, on every /v1 route
 * but /v1/chat (OpenAI's clients read error.message); `{error}` elsewhere.
 */
export function errorBody(
  pathname: string,
  status: number,
  message: string,
  code?: string,
): { error: string } | GatewayErrorBody | (GatewayErrorBody & { message: string }) | ProblemBody {
  if (isSyncPath(pathname)) return problemBody(status, message, code);
  if (!isGatewayPath(pathname)) return { error: message };
  const body = gatewayError(status, message);
  return pathname.startsWith('/v1/chat/') ? body : { ...body, message };
}
