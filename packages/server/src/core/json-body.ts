import type { NextFunction, Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ApiError } from './errors';
import { MAX_INPUT_DEPTH } from './input-guard';
import { refusedBodies, type RefusedBodies } from './refused-body';

export interface JsonBodyOptions {
  /** The largest body taken, after decompression. */
  limitBytes: number;
  /** The deepest nesting of arrays and objects taken; deeper bodies are refused before they are parsed. */
  maxDepth: number;
  /** Bodies one client IP may have read and parsed at once; further ones wait their turn. */
  perIp: number;
  /** Bodies one client IP may have waiting; further ones are refused with `429`. */
  queuePerIp: number;
  /** Where the rest of a refused body goes: read and dropped within bounds, so the client reads its answer. */
  refused: RefusedBodies;
}

const DEFAULTS: JsonBodyOptions = { limitBytes: 1024 * 1024, maxDepth: MAX_INPUT_DEPTH, perIp: 4, queuePerIp: 1000, refused: refusedBodies };

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Nesting depth of JSON text, chunk by chunk, on the raw bytes: brackets inside strings do not count. The bytes it
 * looks at are ASCII, which never occur inside a multi-byte UTF-8 sequence, so chunks may split characters anywhere.
 */
export class DepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxDepth: number) {}

  /** False once the text has gone deeper than `maxDepth`. */
  scan(chunk: Uint8Array): boolean {
    let { depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (++depth > this.maxDepth) return false;
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return true;
  }
}

/** Per client IP: bodies being read or parsed, and those waiting for a turn. */
class IpSlots {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly perIp: number, private readonly queuePerIp: number) {}

  /** Resolves to a release function once the IP has a free slot; `null` when its queue is full. */
  acquire(ip: string): Promise<(() => void) | null> {
    const release = () => this.release(ip);
    if ((this.active.get(ip) ?? 0) < this.perIp) {
      this.active.set(ip, (this.active.get(ip) ?? 0) + 1);
      return Promise.resolve(once(release));
    }
    const queue = this.waiting.get(ip) ?? [];
    if (queue.length >= this.queuePerIp) return Promise.resolve(null);
    this.waiting.set(ip, queue);
    return new Promise((resolve) => queue.push(() => resolve(once(release))));
  }

  private release(ip: string): void {
    const queue = this.waiting.get(ip);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(ip);
    // The slot passes straight to the next in line.
    if (next) return next();
    const n = (this.active.get(ip) ?? 1) - 1;
    if (n <= 0) this.active.delete(ip);
    else this.active.set(ip, n);
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) (done = true), fn();
  };
}

/** The request's body stream, decompressed as its `Content-Encoding` says; `null` for an encoding not taken. */
function decoded(req: Request): Readable | null {
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return req;
  const decompress = encoding === 'gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : null;
  if (!decompress) return null;
  req.pipe(decompress);
  req.on('error', (err) => decompress.destroy(err));
  return decompress;
}

const tooDeep = (maxDepth: number) =>
  ApiError.of('invalid_request', { message: `The request body is nested more than ${maxDepth} levels deep.`, param: 'body' });
const unreadable = () => ApiError.of('invalid_request', { message: 'The request body cannot be read as sent (check `Content-Encoding`).', param: 'body' });

/** Reads the body within the limits; resolves to its bytes, or rejects with the answer to give. */
function readBody(stream: Readable, o: JsonBodyOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const scanner = new DepthScanner(o.maxDepth);
    let size = 0;
    const fail = (err: ApiError) => {
      // The rest is not kept: `jsonBody` hands it to the refused bodies' reader.
      stream.removeAllListeners('data');
      stream.pause();
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > o.limitBytes) return fail(ApiError.of('body_too_large'));
      if (!scanner.scan(chunk)) return fail(tooDeep(o.maxDepth));
      chunks.push(chunk);
    });
    stream.once('end', () => resolve(Buffer.concat(chunks, size)));
    stream.once('error', () => reject(unreadable()));
  });
}

/**
 * The JSON body parser, hardened against hostile bodies before any of them is parsed or authenticated: a
 * declared length over the limit is refused before it is read; the bytes are counted and their nesting measured as
 * they arrive, so a body over the limit or deeper than `maxDepth` is refused after the first byte too many (`413
 * body_too_large`, `400 invalid_request`) without being kept; and each client IP has only `perIp` bodies read
 * and parsed at once. A refused body is answered at once; its rest is read and dropped at a bounded rate
 * (`RefusedBodies`), since closing the connection on it would make the client lose the answer.
 */
export function jsonBody(options: Partial<JsonBodyOptions> = {}) {
  const o = { ...DEFAULTS, ...options };
  const slots = new IpSlots(o.perIp, o.queuePerIp);
  return async (req: Request, res: Response, next: NextFunction) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody || !req.is('application/json')) return next();
    const refuse = (err: ApiError) => {
      // A rest too large to be worth reading is left unread: the connection goes once the answer is out.
      if (!o.refused.drop(req)) res.setHeader('Connection', 'close');
      next(err);
    };
    if (Number(req.headers['content-length'] ?? 0) > o.limitBytes) return refuse(ApiError.of('body_too_large'));
    const charset = /;\s*charset=("?)([\w-]+)\1/i.exec(req.headers['content-type'] ?? '')?.[2]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return refuse(ApiError.of('unsupported_media_type', { message: 'Send the request body as UTF-8 JSON.' }));
    }
    const stream = decoded(req);
    if (!stream) return refuse(ApiError.of('unsupported_media_type', { message: 'The request body\'s `Content-Encoding` is not gzip, deflate or br.' }));
    const release = await slots.acquire(req.ip ?? 'unknown');
    if (!release) return refuse(ApiError.of('rate_limited', { message: 'Too many request bodies from this client at once.', headers: { 'Retry-After': '1' } }));
    try {
      const raw = await readBody(stream, o);
      const text = raw.toString('utf8');
      try {
        req.body = text.trim() === '' ? {} : JSON.parse(text);
      } catch {
        return next(ApiError.of('malformed_json', { message: 'The request body is not valid JSON.' }));
      }
      next();
    } catch (err) {
      if (stream !== req) {
        // The rest is dropped as sent, undecompressed.
        req.unpipe();
        stream.destroy();
      }
      refuse(err instanceof ApiError ? err : unreadable());
    } finally {
      release();
    }
  };
}
