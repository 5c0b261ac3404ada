import type { ErrorType } from '../contract-types';

export interface SvcErrorFields {
  status: number | undefined;
  type: ErrorType | 'connection_error';
  code: string;
  message: string;
  param: string | null;
  details: Record<string, unknown> | null;
  requestId: string | null;
  headers: Headers | undefined;
}

/** Every failure of a call. Branch on `code`; a code this SDK does not know still has its `type` and subclass. */
export class SvcError extends Error implements SvcErrorFields {
  readonly status: number | undefined;
  readonly type: SvcErrorFields['type'];
  readonly code: string;
  readonly param: string | null;
  readonly details: Record<string, unknown> | null;
  readonly requestId: string | null;
  readonly headers: Headers | undefined;

  constructor(fields: SvcErrorFields) {
    super(fields.message);
    this.name = new.target.name;
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.param = fields.param;
    this.details = fields.details;
    this.requestId = fields.requestId;
    this.headers = fields.headers;
  }
}

export class InvalidRequestError extends SvcError {}
export class AuthenticationError extends SvcError {}
export class PermissionError extends SvcError {}
export class RateLimitError extends SvcError {}
export class IdempotencyError extends SvcError {}
export class ProviderError extends SvcError {}
export class ApiError extends SvcError {}
/** The request never got an answer (network failure or timeout). */
export class ConnectionError extends SvcError {}

const BY_TYPE: Record<string, typeof SvcError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  rate_limit_error: RateLimitError,
  idempotency_error: IdempotencyError,
  provider_error: ProviderError,
  api_error: ApiError,
};

const TYPE_BY_STATUS = (status: number): ErrorType =>
  status === 401
    ? 'authentication_error'
    : status === 403
      ? 'permission_error'
      : status === 429
        ? 'rate_limit_error'
        : status === 502
          ? 'provider_error'
          : status >= 500
            ? 'api_error'
            : 'invalid_request_error';

/** Builds the error for a non-2xx answer, whatever its body looks like (full, reduced, or not JSON at all). */
export function errorFromResponse(status: number, headers: Headers, body: unknown): SvcError {
  const e = (body as { error?: Record<string, unknown> } | null)?.error;
  const type = (typeof e?.type === 'string' ? e.type : TYPE_BY_STATUS(status)) as ErrorType;
  const Class = BY_TYPE[type] ?? BY_TYPE[TYPE_BY_STATUS(status)]!;
  return new Class({
    status,
    type,
    code: typeof e?.code === 'string' ? e.code : `http_${status}`,
    message: typeof e?.message === 'string' ? e.message : `Request failed with status ${status}`,
    param: typeof e?.param === 'string' ? e.param : null,
    details: (e?.details as Record<string, unknown> | undefined) ?? null,
    requestId: (typeof e?.request_id === 'string' ? e.request_id : null) ?? headers.get('request-id'),
    headers,
  });
}

export function connectionError(cause: unknown, timedOut: boolean): ConnectionError {
  const error = new ConnectionError({
    status: undefined,
    type: 'connection_error',
    code: timedOut ? 'timeout' : 'connection_failed',
    message: timedOut ? 'The request timed out.' : `The request failed: ${(cause as Error)?.message ?? String(cause)}`,
    param: null,
    details: null,
    requestId: null,
    headers: undefined,
  });
  (error as Error & { cause?: unknown }).cause = cause;
  return error;
}
