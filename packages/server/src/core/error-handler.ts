import type { NextFunction, Request, Response } from 'express';
import { RequestValidationError } from '@ts-rest/express';
import type { Logger } from 'pino';
import { ApiError } from './errors';

type Issue = { path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>; message: string };
type IssueSource = { issues?: ReadonlyArray<Issue> } | null;

/** Validation messages keyed by field path, e.g. `{"items.0.quantity": ["Too small"]}`. */
function detailsOf(sources: Array<[string, IssueSource]>): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const [where, source] of sources) {
    for (const issue of source?.issues ?? []) {
      const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
      const key = path || where;
      (details[key] ??= []).push(issue.message);
    }
  }
  return details;
}

function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof RequestValidationError) {
    const details = detailsOf([
      ['path', err.pathParams as IssueSource],
      ['headers', err.headers as IssueSource],
      ['query', err.query as IssueSource],
      ['body', err.body as IssueSource],
    ]);
    const fields = Object.keys(details);
    return ApiError.of('validation_failed', {
      message: `Invalid ${fields.map((f) => `\`${f}\``).join(', ')}: ${details[fields[0]!]?.[0] ?? 'see details'}.`,
      param: fields[0],
      details,
    });
  }
  // body-parser's errors carry a `type`.
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return ApiError.of('malformed_json', { message: 'The request body is not valid JSON.' });
  if (type === 'entity.too.large') return ApiError.of('body_too_large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return ApiError.of('unsupported_media_type');
  // Express and body-parser report other input they cannot read with a 4xx `status`: a path segment that is not
  // valid percent-encoding (a URIError), a body that does not match its `Content-Encoding`.
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (err instanceof URIError) return ApiError.of('invalid_request', { message: 'The path is not valid percent-encoding.' });
    if (status === 413) return ApiError.of('body_too_large');
    if (status === 415) return ApiError.of('unsupported_media_type');
    return ApiError.of('invalid_request', { message: 'The request body cannot be read as sent (check `Content-Encoding`).', param: 'body' });
  }
  return null;
}

/** The one place failures become HTTP responses; unexpected ones are logged with their stack and answered without it. */
export function errorHandler(log: Logger, docsBaseUrl: string) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let apiError = toApiError(err);
    if (!apiError) {
      log.error({ err, req: { id: req.id, method: req.method, url: req.originalUrl.split('?')[0] } }, 'unhandled error');
      apiError = ApiError.of('internal_error', { message: 'An unexpected error occurred; it has been logged.' });
    }
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(apiError.options.headers ?? {})) res.setHeader(name, value);
    res.status(apiError.status).json(apiError.toBody(String(req.id), docsBaseUrl));
  };
}
