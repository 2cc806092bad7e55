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

export function errorBody(pathname: string, status: number, message: string): { error: string } | GatewayErrorBody {
  return isGatewayPath(pathname) ? gatewayError(status, message) : { error: message };
}
