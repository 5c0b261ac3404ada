import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface Recorded {
  method: string;
  path: string;
  query?: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

type Answer = { status: number; body: unknown } | 'drop';

/**
 * An HTTP peer that speaks the Access session routes from a script, serves a test page and the built SDK,
 * and records every call, so browser behaviour (timers, retries, unload) can be driven precisely.
 */
export class ScriptedApi {
  readonly calls: Recorded[] = [];
  /** Answers for the next heartbeats, in order; when empty, heartbeats succeed. */
  heartbeatScript: Answer[] = [];
  openScript: Answer[] = [];
  sources = [{ provider: 'simulated', url: 'https://play.example/a.m3u8?token=1' }];
  failover = { max_errors: 2, window_seconds: 30 };
  heartbeatInterval = 1;
  /** Answers for other routes, by `METHOD /path` (query left out). */
  routes: Record<string, Answer> = {};
  private beats = 0;
  private server: Server | undefined;
  url = '';

  session(id = 'as_test1') {
    this.beats += 1;
    return {
      id,
      object: 'access_session',
      entitlement: 'ent_1',
      customer: 'viewer-1',
      contact_hash: null,
      resource: { type: 'ls', id: 'ls_1', variant: null },
      device_id: 'device-1',
      state: 'active',
      expires_at: new Date(Date.now() + 90_000).toISOString(),
      heartbeat_interval: this.heartbeatInterval,
      grant: {
        sources: this.sources.map((s) => ({ ...s, url: `${s.url}&n=${this.beats}` })),
        failover: this.failover,
        heartbeat_interval: this.heartbeatInterval,
        token_expires_at: new Date(Date.now() + 660_000).toISOString(),
      },
    };
  }

  private answer(res: ServerResponse, a: Answer) {
    if (a === 'drop') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(a.status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(a.body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const path = req.url!.split('?')[0]!;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><body><script type="module">
        import * as sdk from '/sdk.js'; window.sdk = sdk; window.ready = true;
      </script></body></html>`);
      return;
    }
    if (req.method === 'GET' && path === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(fileURLToPath(new URL('../dist/index.js', import.meta.url))));
      return;
    }
    if (req.method === 'GET' && path === '/other') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><p>elsewhere</p>');
      return;
    }
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (path.startsWith('/v1/')) this.calls.push({ method: req.method!, path, query: req.url!.split('?')[1] ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
    if (req.method === 'POST' && path === '/v1/access/sessions') {
      return this.answer(res, this.openScript.shift() ?? { status: 201, body: { data: this.session() } });
    }
    if (req.method === 'POST' && /^\/v1\/access\/sessions\/[^/]+\/heartbeat$/.test(path)) {
      return this.answer(res, this.heartbeatScript.shift() ?? { status: 200, body: { data: this.session() } });
    }
    if (req.method === 'DELETE' && path.startsWith('/v1/access/sessions/')) {
      return this.answer(res, { status: 200, body: { data: { ...this.session(), state: 'ended' } } });
    }
    this.answer(res, this.routes[`${req.method} ${path}`] ?? { status: 404, body: { error: { code: 'route_not_found', message: 'no' } } });
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  heartbeats(): Recorded[] {
    return this.calls.filter((c) => c.path.endsWith('/heartbeat'));
  }
}

export const apiError = (status: number, code: string, details: Record<string, unknown> | null = null) => ({
  status,
  body: { error: { type: 'x', code, message: code, param: null, details, request_id: 'req_1', doc_url: '' } },
});
