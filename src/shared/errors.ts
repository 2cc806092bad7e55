/**
 * Typed errors that cross the IPC boundary. A handler throws an AppError; the
 * router turns it into `{code, message}`; the renderer's client throws it again.
 * Messages are written for the person using the app: what happened and what to do.
 */
export const errorCodes = [
  // contract level
  'bad_request',
  'forbidden',
  'not_found',
  'internal',
  'invalid_output',
  'unavailable',
  // service level (see the app core issue)
  'invalid_key',
  'network',
  'rate_limited',
  'file_unreadable',
  'file_too_large',
  'unsupported_media',
  'audio_too_short',
  'server_error_retryable',
  'server_error',
  'canceled',
  'engine_unavailable',
  'conflict',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  /** Seconds after which a retry makes sense (rate limits, retryable faults). */
  retryAfter?: number;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfter?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryAfter = options?.retryAfter;
  }

  toInfo(): ErrorInfo {
    return this.retryAfter === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, retryAfter: this.retryAfter };
  }

  static from(info: ErrorInfo): AppError {
    return new AppError(info.code, info.message, info.retryAfter === undefined ? undefined : { retryAfter: info.retryAfter });
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
