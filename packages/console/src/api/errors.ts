/** The API's error body, as every failed call answers it. */
export interface ApiErrorBody {
  error: { type: string; code: string; message: string; param?: string | null; request_id: string };
}

const isErrorBody = (v: unknown): v is ApiErrorBody =>
  typeof v === 'object' && v !== null && typeof (v as ApiErrorBody).error?.message === 'string';

/** What to tell the person about a failed call: the API's message, its code and request id to quote to support. */
export function describeError(err: unknown): string {
  const body = (err as { body?: unknown } | null)?.body;
  if (isErrorBody(body)) {
    const { message, code, request_id } = body.error;
    return `${message} (${code}, ${request_id})`;
  }
  if (err instanceof Error) return err.message;
  // A form's own check, worded for the person.
  if (typeof err === 'string') return err;
  return 'The request failed. Check the connection and try again.';
}

/** An error answered by the API with this code. */
export const hasCode = (err: unknown, code: string) => {
  const body = (err as { body?: unknown } | null)?.body;
  return isErrorBody(body) && body.error.code === code;
};
