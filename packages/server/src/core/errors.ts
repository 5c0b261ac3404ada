import { ERROR_CATALOGUE, type ErrorBody, type ErrorCode } from '@svc/contract';

export interface ApiErrorOptions {
  message?: string;
  param?: string;
  details?: Record<string, unknown>;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** For the few codes answered with two statuses (`tenant_mismatch`: 400 against a key, 401 against a token). */
  status?: number;
  type?: ErrorBody['error']['type'];
}

/** A failure the client is told about: always a code of the contract's catalogue. Thrown anywhere, answered in one place. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;

  private constructor(
    readonly code: ErrorCode,
    readonly options: ApiErrorOptions = {},
  ) {
    const entry = ERROR_CATALOGUE[code];
    super(options.message ?? entry.description);
    this.status = options.status ?? entry.status;
    this.type = options.type ?? entry.type;
  }

  static of(code: ErrorCode, options?: ApiErrorOptions): ApiError {
    return new ApiError(code, options);
  }

  static notFound(what = 'object', id?: string): ApiError {
    return new ApiError('resource_not_found', {
      message: id ? `No such ${what}: '${id}'.` : `No such ${what}.`,
      param: id ? 'id' : undefined,
    });
  }

  toBody(requestId: string, docsBaseUrl: string): ErrorBody | { error: { code: string; message: string } } {
    if ('reduced' in ERROR_CATALOGUE[this.code]) return { error: { code: this.code, message: this.message } };
    return {
      error: {
        type: this.type as ErrorBody['error']['type'],
        code: this.code,
        message: this.message,
        param: this.options.param ?? null,
        details: this.options.details ?? null,
        request_id: requestId,
        doc_url: `${docsBaseUrl}/docs/errors#${this.code}`,
      },
    };
  }
}
