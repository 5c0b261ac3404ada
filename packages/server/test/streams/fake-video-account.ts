import { createHmac, generateKeyPair, generateKeyPairSync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake received, as sent. */
export interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

interface Video {
  uid: string;
  readyToStream: boolean;
  status: { state: string; errReasonText?: string };
  duration: number;
  liveInput?: string;
  created: string;
  modified: string;
  meta: Record<string, unknown>;
  requireSignedURLs: boolean;
}

const hex = (n = 16) => randomBytes(n).toString('hex');

/** A signing key as the account makes it: an RSA key whose PKCS#1 PEM is handed out base64-encoded. */
export function accountSigningKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { id: hex(), pem: Buffer.from(pem).toString('base64'), publicKey };
}

/** The same, made off the event loop: RSA generation blocks for seconds on a loaded machine, stalling every request. */
async function accountSigningKeyAsync() {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { id: hex(), pem: Buffer.from(pem).toString('base64') };
}

/**
 * A local stand-in for the video account's API: the documented paths under `/accounts/{id}`, the JSON
 * envelope `{success, errors, messages, result}`, its status codes, and a log of what it received. Tests
 * play the provider's side with the helpers (a recording appears, a video becomes ready) and inject faults.
 */
export class FakeVideoAccount {
  readonly accountId = hex();
  readonly token = `tok_${hex()}`;
  readonly keys = new Map<string, { id: string; pem: string }>();
  readonly liveInputs = new Map<string, any>();
  readonly videos = new Map<string, Video>();
  readonly uploads = new Map<string, string>();
  readonly received: ReceivedRequest[] = [];
  /** The next answers, in order, replace the real ones: `{status, errors}`. */
  readonly failures: { status: number; errors: { code: number; message: string }[] }[] = [];
  storageExhausted = false;
  private server!: Server;
  url = '';

  /** The key the tenant registers: already on the account. */
  readonly signingKey = accountSigningKey();

  /** The key the next `POST /keys` hands out, made ahead so that the answer does not wait on the generation. */
  private nextKey = accountSigningKeyAsync();

  async start(): Promise<this> {
    this.keys.set(this.signingKey.id, { id: this.signingKey.id, pem: this.signingKey.pem });
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/client/v4`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  requestsTo(method: string, pathEnd: string): ReceivedRequest[] {
    return this.received.filter((r) => r.method === method && r.path.endsWith(pathEnd));
  }

  /** The provider's side: a broadcast on the input produced a recording (live until `finishVideo`). */
  addRecording(inputUid: string, created = new Date()): Video {
    const video = this.video({ liveInput: inputUid, created: created.toISOString(), state: 'live-inprogress' });
    return video;
  }

  finishVideo(uid: string, duration: number, state: 'ready' | 'error' = 'ready'): Video {
    const v = this.videos.get(uid)!;
    Object.assign(v, { readyToStream: state === 'ready', status: { state, ...(state === 'error' && { errReasonText: 'Codec not supported' }) }, duration });
    v.modified = new Date().toISOString();
    return v;
  }

  private video(opts: { liveInput?: string; created?: string; state?: string; requireSignedURLs?: boolean; meta?: any }): Video {
    const now = new Date().toISOString();
    const v: Video = {
      uid: hex(),
      readyToStream: false,
      status: { state: opts.state ?? 'queued' },
      duration: -1,
      ...(opts.liveInput && { liveInput: opts.liveInput }),
      created: opts.created ?? now,
      modified: now,
      meta: opts.meta ?? {},
      requireSignedURLs: opts.requireSignedURLs ?? false,
    };
    this.videos.set(v.uid, v);
    return v;
  }

  private send(res: ServerResponse, status: number, result: unknown, errors: { code: number; message: string }[] = []) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: errors.length === 0, errors, messages: [], result: errors.length ? null : result }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const path = (req.url ?? '').replace(/^\/client\/v4/, '');
    const method = req.method ?? 'GET';
    this.received.push({ method, path, authorization: req.headers.authorization, body });
    const failure = this.failures.shift();
    if (failure) return this.send(res, failure.status, null, failure.errors);
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return this.send(res, 403, null, [{ code: 10000, message: 'Authentication error' }]);
    }
    const prefix = `/accounts/${this.accountId}/stream`;
    if (!path.startsWith(prefix)) return this.send(res, 403, null, [{ code: 10000, message: 'Authentication error' }]);
    const route = `${method} ${path.slice(prefix.length)}`;
    const notFound = () => this.send(res, 404, null, [{ code: 10003, message: 'Not Found' }]);
    const creating = method === 'POST' && /^POST \/(live_inputs$|copy|direct_upload|clip)/.test(route);
    if (creating && this.storageExhausted) {
      return this.send(res, 400, null, [{ code: 10011, message: 'Storage capacity exceeded: the account has no minutes left' }]);
    }
    let m: RegExpMatchArray | null;
    if (route === 'GET /keys') return this.send(res, 200, [...this.keys.values()].map((k) => ({ id: k.id, created: new Date().toISOString() })));
    if (route === 'POST /keys') {
      const key = await this.nextKey;
      this.nextKey = accountSigningKeyAsync();
      this.keys.set(key.id, { id: key.id, pem: key.pem });
      return this.send(res, 200, { id: key.id, pem: key.pem, jwk: 'unused', created: new Date().toISOString() });
    }
    if ((m = route.match(/^DELETE \/keys\/(\w+)$/))) return this.keys.delete(m[1]!) ? this.send(res, 200, 'ok') : notFound();
    if (route === 'POST /live_inputs') {
      const uid = hex();
      const input = {
        uid,
        rtmps: { url: 'rtmps://live.fake-account.invalid:443/live/', streamKey: hex(32) },
        srt: { url: 'srt://live.fake-account.invalid:778', streamId: `${uid}k${hex(8)}`, passphrase: hex(16) },
        webRTC: { url: `https://fake-account.invalid/${hex()}/webRTC/publish` },
        recording: body?.recording,
        deleteRecordingAfterDays: body?.deleteRecordingAfterDays,
        enabled: body?.enabled ?? true,
        meta: body?.meta ?? {},
        outputs: new Map<string, any>(),
      };
      this.liveInputs.set(uid, input);
      const { outputs: _outputs, ...shown } = input;
      return this.send(res, 200, shown);
    }
    if ((m = route.match(/^(PUT|DELETE|GET) \/live_inputs\/(\w+)(\/videos)?$/))) {
      const input = this.liveInputs.get(m[2]!);
      if (!input) return notFound();
      if (m[3]) return this.send(res, 200, [...this.videos.values()].filter((v) => v.liveInput === input.uid));
      if (m[1] === 'DELETE') return this.liveInputs.delete(input.uid), this.send(res, 200, null);
      if (m[1] === 'PUT') Object.assign(input, body);
      const { outputs: _outputs, ...shown } = input;
      return this.send(res, 200, shown);
    }
    if ((m = route.match(/^GET \/live_inputs\/(\w+)\/outputs$/))) {
      const input = this.liveInputs.get(m[1]!);
      return input ? this.send(res, 200, [...input.outputs.values()]) : notFound();
    }
    if ((m = route.match(/^POST \/live_inputs\/(\w+)\/outputs$/))) {
      const input = this.liveInputs.get(m[1]!);
      if (!input) return notFound();
      if (!/^rtmps?:\/\//.test(body?.url ?? '')) return this.send(res, 400, null, [{ code: 10005, message: 'url must be an RTMP or RTMPS address' }]);
      const output = { uid: hex(), url: body.url, streamKey: body.streamKey, enabled: body.enabled ?? true };
      input.outputs.set(output.uid, output);
      return this.send(res, 200, output);
    }
    if ((m = route.match(/^DELETE \/live_inputs\/(\w+)\/outputs\/(\w+)$/))) {
      return this.liveInputs.get(m[1]!)?.outputs.delete(m[2]!) ? this.send(res, 200, null) : notFound();
    }
    if (route === 'POST /copy') return this.send(res, 200, this.video({ requireSignedURLs: body?.requireSignedURLs, meta: body?.meta }));
    if (route === 'POST /direct_upload') {
      const v = this.video({ requireSignedURLs: body?.requireSignedURLs, meta: body?.meta, state: 'pendingupload' });
      return this.send(res, 200, { uid: v.uid, uploadURL: `https://upload.fake-account.invalid/${v.uid}` });
    }
    if (route === 'POST /clip') {
      const source = this.videos.get(body?.clippedFromVideoUID);
      if (!source) return notFound();
      if (!source.readyToStream) return this.send(res, 400, null, [{ code: 10005, message: 'The source video is not ready to stream' }]);
      return this.send(res, 200, this.video({ requireSignedURLs: body?.requireSignedURLs }));
    }
    if ((m = route.match(/^DELETE \/(\w+)$/))) return this.videos.delete(m[1]!) ? this.send(res, 200, null) : notFound();
    return notFound();
  }
}

/** The `Webhook-Signature` the account puts on its webhook deliveries. */
export function webhookSignature(secret: string, body: string, time = Math.floor(Date.now() / 1000)): string {
  return `time=${time},sig1=${createHmac('sha256', secret).update(`${time}.${body}`).digest('hex')}`;
}
