import { ERROR_CATALOGUE, type ErrorCode } from '@svc/contract';
import { HttpResponse } from 'msw';
import { mockId } from './fake';

/** The spec's error object for a catalogued code, as the server answers it. */
export function errorResponse(code: ErrorCode, message?: string, details?: Record<string, unknown>, param?: string) {
  const entry = ERROR_CATALOGUE[code];
  return HttpResponse.json(
    {
      error: {
        type: entry.type,
        code,
        message: message ?? entry.description,
        param: param ?? null,
        details: details ?? null,
        request_id: mockId('request'),
        doc_url: `https://svc.mock/docs/errors#${code}`,
      },
    },
    { status: entry.status, headers: code === 'rate_limited' ? { 'Retry-After': '0' } : undefined },
  );
}
