import { randomFillSync } from 'node:crypto';

/**
 * Random bytes drawn 4 KB at a time: each draw is a call into OpenSSL (about 2 µs here, whatever its size), and
 * every request takes several (its id, its objects' ids, the IV of each value it seals). No byte is handed out
 * twice; Node's own `randomUUID` keeps such a buffer too.
 */
export const randomPool = new Uint8Array(4096);
let at = randomPool.length;

/** Where `n` (at most 4,096) fresh random bytes start in `randomPool`. */
export function takeRandom(n: number): number {
  if (at + n > randomPool.length) {
    randomFillSync(randomPool);
    at = 0;
  }
  const start = at;
  at += n;
  return start;
}

/** `n` fresh random bytes of their own. */
export function randomBytesPooled(n: number): Buffer {
  const start = takeRandom(n);
  return Buffer.from(randomPool.subarray(start, start + n));
}
