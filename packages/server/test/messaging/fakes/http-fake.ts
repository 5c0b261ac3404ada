import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FakeHandler = (req: FakeRequest) => { status: number; body: unknown; type?: string } | Promise<{ status: number; body: unknown; type?: string }> | 'hang';

/** A local HTTP server that records every request and answers through `handler`; `hang` never answers. */
export class HttpFake {
  readonly requests: FakeRequest[] = [];
  private readonly server: Server;
  private readonly hanging: ServerResponse[] = [];
  url = '';

  constructor(public handler: FakeHandler) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const request = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.requests.push(request);
        const answer = await this.handler(request);
        if (answer === 'hang') return void this.hanging.push(res);
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'content-type': answer.type ?? (typeof answer.body === 'string' ? 'text/plain' : 'application/json') });
        res.end(text);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
