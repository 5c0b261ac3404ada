import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** A real HTTP server on 127.0.0.1 that records what it receives and answers as the test says. */
export class Receiver {
  readonly received: Received[] = [];
  connections = 0;
  inFlight = 0;
  maxInFlight = 0;
  private reply: (r: Received, n: number) => Reply = () => ({ status: 200, body: 'ok' });
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      this.received.push(r);
      const { status = 200, body = '', headers = {}, delayMs = 0 } = this.reply(r, this.received.length);
      setTimeout(() => {
        this.inFlight--;
        if (res.destroyed) return;
        res.writeHead(status, headers).end(body);
      }, delayMs);
    });
  });

  constructor() {
    this.server.on('connection', () => this.connections++);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  answer(reply: (r: Received, n: number) => Reply): void {
    this.reply = reply;
  }

  /** Waits until `n` requests arrived (in total), or fails after `timeoutMs`. */
  async waitFor(n: number, timeoutMs = 10_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > until) throw new Error(`receiver got ${this.received.length} requests, expected ${n}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
