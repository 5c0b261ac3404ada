import http from 'node:http';
import https from 'node:https';
import type { PinnedTarget } from './webhook-agents';

/** The part of a response body the attempt log keeps. */
export const RESPONSE_LOG_BYTES = 4096;

export interface PostResult {
  statusCode: number | null;
  /** Until the response headers arrived, or until the failure. */
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
}

/**
 * One POST of a webhook body. Redirects are not followed (Node's client never does); the whole exchange,
 * connection included, must produce response headers within `timeoutMs`. The connection is kept for the next
 * delivery to the same address when the answer was read to its end. A kept connection the receiver closed
 * meanwhile fails before any answer; the POST is then sent once more on a new connection.
 */
export async function postWebhook(
  url: URL,
  target: PinnedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const first = await postOnce(url, { agent: target.agent }, headers, body, timeoutMs, started);
  if (!first.staleConnection) return first.result;
  const fresh = { agent: false as const, lookup: target.lookup };
  return (await postOnce(url, fresh, headers, body, timeoutMs - (performance.now() - started), started)).result;
}

function postOnce(
  url: URL,
  connect: Pick<http.RequestOptions, 'agent' | 'lookup'>,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  started: number,
): Promise<{ result: PostResult; staleConnection: boolean }> {
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    let latencyMs = 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const finish = (error: string | null, opts: { keepConnection?: boolean; stale?: boolean } = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      const responseBody = statusCode === null ? null : Buffer.concat(chunks).subarray(0, RESPONSE_LOG_BYTES).toString('utf8');
      resolve({ result: { statusCode, latencyMs: statusCode === null ? elapsed() : latencyMs, responseBody, error }, staleConnection: opts.stale ?? false });
      if (!opts.keepConnection) req.destroy();
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, ...connect });
    // Past the deadline without headers the attempt failed; with headers, it keeps what body it had.
    const deadline = setTimeout(() => finish(statusCode === null ? 'timeout' : null), Math.max(0, timeoutMs));
    req.on('response', (res) => {
      statusCode = res.statusCode ?? null;
      latencyMs = elapsed();
      res.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_LOG_BYTES) chunks.push(chunk);
        kept += chunk.length;
        if (kept >= RESPONSE_LOG_BYTES) finish(null);
      });
      res.on('end', () => finish(null, { keepConnection: true }));
      res.on('error', () => finish(null));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && statusCode === null && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      finish(err.code ?? err.message, { stale });
    });
    req.end(body);
  });
}
