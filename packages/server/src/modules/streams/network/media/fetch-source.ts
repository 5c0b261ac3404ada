import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { permittedAddresses, systemResolver, type HostResolver, type ResolvedAddress } from '../../../../core/outbound/url-policy';

const pinned =
  (address: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };

const MAX_REDIRECTS = 3;

/**
 * Downloads an asset's `url` to `path` under the webhook rules: every address the host resolves to must be
 * public (loopback too in test mode), live mode needs https, and the connection goes to the checked address
 * only, so DNS cannot change under it. Redirects are followed (three at most), each checked the same way.
 * Throws an Error whose message says what went wrong, for the asset's `error`.
 */
export async function fetchSource(url: string, path: string, livemode: boolean, maxBytes: number, resolve: HostResolver = systemResolver): Promise<void> {
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const [address] = await permittedAddresses(current, livemode, resolve);
    const get = current.protocol === 'https:' ? https.get : http.get;
    const res = await new Promise<http.IncomingMessage>((ok, fail) => {
      const req = get(current, { lookup: pinned(address!), timeout: 30_000 }, ok);
      req.on('timeout', () => req.destroy(new Error(`${current.host} did not answer in time`)));
      req.on('error', fail);
    });
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      current = new URL(res.headers.location, current);
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new Error(`Fetching the URL answered HTTP ${status}.`);
    }
    if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
      res.destroy();
      throw new Error(`The file is larger than ${maxBytes} bytes.`);
    }
    let received = 0;
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) res.destroy(new Error(`The file is larger than ${maxBytes} bytes.`));
    });
    await pipeline(res, createWriteStream(path));
    return;
  }
  throw new Error(`The URL redirected more than ${MAX_REDIRECTS} times.`);
}
