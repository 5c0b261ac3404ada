import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SunkRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  json: unknown;
}

/** A local receiver of provider callbacks for client tests: records each POST and answers Daraja's acknowledgement. */
export class CallbackSink {
  readonly received: SunkRequest[] = [];
  private readonly server: Server;
  url = '';

  constructor(private readonly answer: { status: number; body: unknown } = { status: 200, body: { ResultCode: 0, ResultDesc: 'Accepted' } }) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch {
          json = undefined;
        }
        this.received.push({ path: req.url ?? '/', headers: req.headers, raw, json });
        res.writeHead(this.answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(this.answer.body));
      });
    });
  }

  to(path: string): SunkRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
