import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake received, with its raw body (signatures are checked over raw bodies). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: string;
  json: unknown;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  /** `text/html` for hosted pages; default JSON for objects, text for strings. */
  type?: string;
  headers?: Record<string, string>;
}

/** What the fake does instead of answering: a status of its own (5xx, 429), never answering, or a reset. */
export type Fault = { kind: 'status'; status: number; body?: unknown } | { kind: 'hang' } | { kind: 'reset' };

/** A callback or webhook the fake sent (or tried to), and what the receiver answered. */
export interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
  status: number | null;
  answer: string;
  at: number;
}

/**
 * The common part of the provider fakes: a node:http server on a free port that records every request,
 * injects faults on demand, answers control routes (`POST /__control/<name>`, for a server in another
 * process) and sends callbacks, which it can hold back and send again.
 */
export abstract class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  readonly deliveries: Delivery[] = [];
  /** While true, callbacks wait in `held` until `release()`. */
  holdCallbacks = false;
  /** Milliseconds between the provider's acknowledgement and its callback. */
  callbackDelayMs = 50;
  url = '';
  private readonly held: Array<() => Promise<Delivery>> = [];
  private readonly faults: Array<{ match: (r: RecordedRequest) => boolean; fault: Fault; times: number }> = [];
  private readonly hanging = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server: Server;
  protected readonly controls: Record<string, (body: Record<string, unknown>) => unknown> = {
    hold: (b) => void (this.holdCallbacks = b.on !== false),
    release: () => this.release(),
    fault: (b) => this.failNext(String(b.path ?? ''), b.kind === 'hang' ? { kind: 'hang' } : b.kind === 'reset' ? { kind: 'reset' } : { kind: 'status', status: Number(b.status ?? 500) }, Number(b.times ?? 1)),
  };

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
  }

  protected abstract route(req: RecordedRequest): FakeAnswer | Promise<FakeAnswer>;

  /** The next `times` requests whose path contains `path` (or matches it) meet `fault`. */
  failNext(path: string | RegExp, fault: Fault, times = 1): void {
    const match = (r: RecordedRequest) => (typeof path === 'string' ? r.path.includes(path) : path.test(r.path));
    this.faults.push({ match, fault, times });
  }

  /** The requests to one path (without the query), for assertions. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://fake.local');
    let json: unknown;
    try {
      json = raw && /json/.test(req.headers['content-type'] ?? '') ? JSON.parse(raw) : undefined;
    } catch {
      json = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, raw, json };
    if (u.pathname.startsWith('/__control/')) return this.answer(res, await this.control(u.pathname.slice('/__control/'.length), json));
    this.requests.push(recorded);
    const i = this.faults.findIndex((f) => f.times > 0 && f.match(recorded));
    if (i >= 0) {
      const { fault } = this.faults[i]!;
      if (--this.faults[i]!.times === 0) this.faults.splice(i, 1);
      if (fault.kind === 'hang') return void this.hanging.add(res);
      if (fault.kind === 'reset') return void res.socket?.destroy();
      return this.answer(res, { status: fault.status, body: fault.body ?? '<html><body>Service Unavailable</body></html>', type: fault.body ? undefined : 'text/html' });
    }
    try {
      this.answer(res, await this.route(recorded));
    } catch (err) {
      this.answer(res, { status: 500, body: { fake_error: err instanceof Error ? err.message : String(err) } });
    }
  }

  private async control(name: string, body: unknown): Promise<FakeAnswer> {
    const fn = this.controls[name];
    if (!fn) return { status: 404, body: { error: `no control ${name}` } };
    return { status: 200, body: { ok: true, result: (await fn((body ?? {}) as Record<string, unknown>)) ?? null } };
  }

  private answer(res: ServerResponse, a: FakeAnswer): void {
    const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status, { 'content-type': a.type ?? (typeof a.body === 'string' ? 'text/plain' : 'application/json'), ...a.headers });
    res.end(text);
  }

  /** Runs `fn` after `ms`, unless the fake stops first. */
  protected later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** Posts a callback now, or keeps it for `release()` while callbacks are held (or when `hold` says so). */
  protected callback(url: string, body: string, headers: Record<string, string> = {}, hold = false): void {
    const send = () => this.post(url, body, headers);
    if (this.holdCallbacks || hold) this.held.push(send);
    else void send();
  }

  /** Sends what was held, in order; answers the deliveries. */
  async release(): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const send of this.held.splice(0)) out.push(await send());
    return out;
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Sends a delivery again, exactly as it went (a provider's retry). */
  resend(delivery: Delivery): Promise<Delivery> {
    return this.post(delivery.url, delivery.body, delivery.headers);
  }

  protected async post(url: string, body: string, headers: Record<string, string>): Promise<Delivery> {
    const d: Delivery = { url, body, headers: { 'content-type': 'application/json', ...headers }, status: null, answer: '', at: Date.now() };
    this.deliveries.push(d);
    try {
      const res = await fetch(url, { method: 'POST', headers: d.headers, body, signal: AbortSignal.timeout(10_000) });
      d.status = res.status;
      d.answer = await res.text();
    } catch (err) {
      d.answer = err instanceof Error ? err.message : String(err);
    }
    return d;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `check` holds (deliveries arrive on timers). */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the fake');
    await new Promise((r) => setTimeout(r, 10));
  }
}
