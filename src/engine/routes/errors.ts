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
  return pathname === '/v1/warm' || pathname === '/v1/transcribe' || pathname.startsWith('/v1/transcribe/');
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Audio Too Large',
  415: 'Unsupported Media Type',
  422: 'Bad Audio',
  429: 'Too Many Requests',
  500: 'Internal Error',
  503: 'Capacity Exceeded',
};

/**
 * The Sync and Dictation APIs' error: RFC 9457 problem details, which the SDK's SyncTranscriptError and
 * DictationError read (`detail` the message, the snake_cased `title` the code), with `error` beside for
 * clients that read that.
 */
export interface ProblemBody {
  type: 'about:blank';
  status: number;
  title: string;
  detail: string;
  error: string;
}

export function problemBody(status: number, message: string): ProblemBody {
  return { type: 'about:blank', status, title: TITLES[status] ?? (status >= 500 ? 'Internal Error' : 'Bad Request'), detail: message, error: message };
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
): { error: string } | GatewayErrorBody | (GatewayErrorBody & { message: string }) | ProblemBody {
  if (isSyncPath(pathname)) return problemBody(status, message);
  if (!isGatewayPath(pathname)) return { error: message };
  const body = gatewayError(status, message);
  return pathname.startsWith('/v1/chat/') ? body : { ...body, message };
}
