import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { permittedAddresses, UrlRefused, type HostResolver, type ResolvedAddress } from './url-policy';

/** Connects to `address` only: the host name is never resolved again, so a DNS answer cannot change under us. */
export const pinnedLookup =
  (address: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };

export interface PolicyFetchOptions {
  livemode: boolean;
  resolve: HostResolver;
  /** A larger answer is refused (an error), so a hostile server cannot fill the memory. */
  maxBytes?: number;
  timeoutMs?: number;
}

export interface PolicyFetchInit {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  body?: ConstructorParameters<typeof Response>[0];
  signal?: AbortSignal | null;
}

export type PolicyFetch = (url: string | URL, init?: PolicyFetchInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

function toResponse(url: URL, res: http.IncomingMessage, body: Buffer): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`${url.host} answered the invalid status ${status}.`);
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const response = new Response(NULL_BODY_STATUSES.has(status) ? null : body, { status, statusText: res.statusMessage ?? '', headers });
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

/**
 * A `fetch` under the webhook rules (url-policy.ts): every request's URL is checked now (live mode: https to
 * public addresses only; test mode: http and loopback too) and the connection goes to the address just
 * checked, so DNS cannot change between the check and the connection. Redirects are answered as they are,
 * never followed (`redirect: 'manual'`). A refused URL throws `UrlRefused` before any connection.
 */
export function policyFetch(options: PolicyFetchOptions): PolicyFetch {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (input, init = {}) => {
    const url = new URL(input);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UrlRefused('https_required', 'Only http(s) URLs are fetched.');
    const [address] = await permittedAddresses(url, options.livemode, options.resolve);
    const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
    const payload = init.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    if (payload) headers['content-length'] = String(payload.length);
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        { method: init.method ?? 'GET', headers, lookup: pinnedLookup(address!), agent: false, timeout: timeoutMs, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) req.destroy(new Error(`The answer of ${url.host} is larger than ${maxBytes} bytes.`));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            try {
              resolve(toResponse(url, res, Buffer.concat(chunks)));
            } catch (err) {
              reject(err);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${url.host} did not answer in time.`)));
      req.on('error', reject);
      req.end(payload);
    });
  };
}
