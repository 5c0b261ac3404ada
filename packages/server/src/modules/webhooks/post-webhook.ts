import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../../core/outbound/url-policy';

/** The part of a response body the attempt log keeps. */
export const RESPONSE_LOG_BYTES = 4096;

export interface PostResult {
  statusCode: number | null;
  /** Until the response headers arrived, or until the failure. */
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
}

/** Connects to `address` only: the host name is never resolved again, so a DNS answer cannot change under us. */
const pinnedLookup =
  (address: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };

/**
 * One POST of a webhook body. Redirects are not followed (Node's client never does); the whole exchange,
 * connection included, must produce response headers within `timeoutMs`.
 */
export function postWebhook(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    let latencyMs = 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      const responseBody = statusCode === null ? null : Buffer.concat(chunks).subarray(0, RESPONSE_LOG_BYTES).toString('utf8');
      resolve({ statusCode, latencyMs: statusCode === null ? elapsed() : latencyMs, responseBody, error });
      req.destroy();
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: pinnedLookup(address),
      agent: false,
    });
    // Past the deadline without headers the attempt failed; with headers, it keeps what body it had.
    const deadline = setTimeout(() => finish(statusCode === null ? 'timeout' : null), timeoutMs);
    req.on('response', (res) => {
      statusCode = res.statusCode ?? null;
      latencyMs = elapsed();
      res.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_LOG_BYTES) chunks.push(chunk);
        kept += chunk.length;
        if (kept >= RESPONSE_LOG_BYTES) finish(null);
      });
      res.on('end', () => finish(null));
      res.on('error', () => finish(null));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(err.code ?? err.message));
    req.end(body);
  });
}
