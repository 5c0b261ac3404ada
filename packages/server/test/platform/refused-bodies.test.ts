import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/core/error-handler';
import { jsonBody } from '../../src/core/json-body';
import { RefusedBodies } from '../../src/core/refused-body';
import { useTestServer } from '../harness';

/** `[[[…]]]` of `bytes` bytes. */
const nested = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * One TCP connection, spoken to as a plain client does: it writes a whole request (body included) at once and
 * reads answers as they come, whether or not the server read everything sent.
 */
class RawConnection {
  private buffered = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  readonly closed: Promise<void>;
  error: Error | undefined;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake?.();
    });
    socket.on('error', (err) => (this.error = err));
    this.closed = new Promise((resolve) => socket.once('close', () => (resolve(), this.wake?.())));
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(method: string, path: string, body?: string, headers: Record<string, string> = {}): void {
    const all = { host: 'localhost', ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers };
    const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    this.socket.write(body === undefined ? head : head + body);
  }

  /** The next whole answer; rejects if the connection ends (or is reset) before it arrives. */
  async answer(): Promise<RawAnswer> {
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffered.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length']);
        if (this.buffered.length >= end + 4 + length) {
          const text = this.buffered.subarray(end + 4, end + 4 + length).toString('utf8');
          this.buffered = this.buffered.subarray(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : null };
        }
      }
      if (this.socket.destroyed) throw new Error(`the connection ended before an answer (${this.error?.message ?? 'closed'})`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

describe('a refused body over a raw connection', () => {
  const t = useTestServer();
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('is answered 400 with the error object, read by a client still sending its 1 MB, and the connection serves on', async () => {
    const body = nested(1024 * 1024);
    const connections = await Promise.all(Array.from({ length: 16 }, () => RawConnection.open(url)));
    for (const c of connections) c.send('POST', '/v1/status', body);
    for (const c of connections) {
      const refused = await c.answer();
      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_request',
        param: 'body',
        message: expect.stringContaining('nested more than'),
        request_id: expect.stringMatching(/^req_/),
      });
      // Once the rest was read and dropped, the same connection takes the next request.
      c.send('GET', '/v1/status');
      expect((await c.answer()).status).toBe(200);
      c.socket.destroy();
    }
  });
});

describe('the rest of a refused body', () => {
  /** A JSON endpoint behind `jsonBody`, with the refused bodies' reader given. */
  async function serve(refused: RefusedBodies, limitBytes = 64 * 1024) {
    const app = express();
    app.use(jsonBody({ refused, limitBytes }));
    app.post('/', (req, res) => void res.json({ got: req.body }));
    app.use(errorHandler(pino({ level: 'silent' }), 'http://127.0.0.1'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }

  it('is read at the shared rate at most, whoever sends it', async () => {
    const { url, close } = await serve(new RefusedBodies({ bytesPerSecond: 1024 * 1024, maxBytes: 2 * 1024 * 1024, maxMs: 60_000 }), 1024 * 1024);
    try {
      const connections = await Promise.all(Array.from({ length: 3 }, () => RawConnection.open(url)));
      const started = performance.now();
      for (const c of connections) c.send('POST', '/', nested(512 * 1024));
      // Each is answered at once, then its rest read and dropped; the next request on it is answered after that.
      await Promise.all(connections.map(async (c) => expect((await c.answer()).status).toBe(400)));
      for (const c of connections) c.send('POST', '/', '{"n":1}');
      await Promise.all(connections.map(async (c) => expect((await c.answer()).body).toEqual({ got: { n: 1 } })));
      // About 1.3 MB left unread at the refusals, at 1 MB/s, less the first tenth of a second's allowance.
      expect(performance.now() - started).toBeGreaterThan(900);
      for (const c of connections) c.socket.destroy();
    } finally {
      close();
    }
  });

  it('is read up to a size: a sender going on past it loses the connection, after its answer', async () => {
    const { url, close } = await serve(new RefusedBodies({ bytesPerSecond: 64 * 1024 * 1024, maxBytes: 128 * 1024, maxMs: 60_000 }));
    try {
      const c = await RawConnection.open(url);
      c.send('POST', '/', undefined, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      const chunk = `${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`;
      c.socket.write(`1\r\n[\r\n${chunk}`);
      expect((await c.answer()).body.error.code).toBe('body_too_large');
      // Sending on and on, as a hostile client would: the server stops reading and closes.
      const sending = setInterval(() => c.socket.writable && c.socket.write(chunk), 5);
      await c.closed;
      clearInterval(sending);
    } finally {
      close();
    }
  });

  it('is read for a time: a sender trickling it loses the connection', async () => {
    const { url, close } = await serve(new RefusedBodies({ bytesPerSecond: 64 * 1024 * 1024, maxBytes: 2 * 1024 * 1024, maxMs: 300 }));
    try {
      const c = await RawConnection.open(url);
      c.send('POST', '/', undefined, { 'content-type': 'application/json', 'content-length': String(32 * 1024) });
      c.socket.write('['.repeat(64));
      expect((await c.answer()).status).toBe(400);
      const trickling = setInterval(() => c.socket.writable && c.socket.write('['), 20);
      await c.closed;
      clearInterval(trickling);
    } finally {
      close();
    }
  });
});
