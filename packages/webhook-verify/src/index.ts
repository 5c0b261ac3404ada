/**
 * Verifies `Svc-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`: HMAC-SHA256 of `t + "." + rawBody`, keyed with the
 * endpoint secret's UTF-8 bytes. WebCrypto only, no dependencies.
 */

export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature'
  | 'raw_body_required';

/** The one error `verifyWebhook` throws; branch on `reason`. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** The event envelope; `data.object` is the resource as the API returns it. */
export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created_at: string;
  livemode: boolean;
  tenant: string;
  subject: string;
  data: { object: T; previous_attributes: Record<string, unknown> | null };
  request: { id: string; idempotency_key: string | null } | null;
}

export type RawBody = string | Uint8Array | ArrayBuffer;

export interface VerifyOptions {
  /** Largest accepted distance between `t` and now; default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The receiver's clock: Unix seconds or a Date; default now. */
  now?: number | Date;
}

const encoder = new TextEncoder();

/** The part of WebCrypto used here, typed locally so the package needs neither DOM nor Node typings. */
interface HmacSubtle {
  importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: false, usages: ['sign']): Promise<unknown>;
  sign(algorithm: 'HMAC', key: never, data: Uint8Array): Promise<ArrayBuffer>;
}

async function subtle(): Promise<HmacSubtle> {
  const global = (globalThis as { crypto?: { subtle?: HmacSubtle } }).crypto?.subtle;
  if (global) return global;
  // Node 18 without the global: its built-in module (named indirectly so browser bundlers leave it alone).
  const nodeCrypto = 'node:crypto';
  return ((await import(/* @vite-ignore */ nodeCrypto)) as { webcrypto: { subtle: HmacSubtle } }).webcrypto.subtle;
}

function toBytes(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new WebhookVerificationError(
    'raw_body_required',
    'Pass the raw request body (a string or bytes, exactly as received), not a parsed object: re-serialised JSON does not match the signature. ' +
      "Express: express.raw({ type: 'application/json' }); Next.js: await request.text().",
  );
}

async function hmacHex(secret: string, timestamp: number, body: Uint8Array): Promise<string> {
  const s = await subtle();
  const key = await s.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  const mac = new Uint8Array(await s.sign('HMAC', key as never, message));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares in time that depends on the length only, not on where the strings differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const [key, value] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (eq <= 0 || !value) throw new WebhookVerificationError('malformed_header', `Malformed signature header part '${part}'.`);
    if (key === 't') {
      if (!/^\d+$/.test(value)) throw new WebhookVerificationError('malformed_header', 'The signature header `t` is not a Unix time.');
      timestamp = Number(value);
    } else if (key === 'v1') signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined) throw new WebhookVerificationError('malformed_header', 'The signature header has no `t`.');
  if (signatures.length === 0) throw new WebhookVerificationError('malformed_header', 'The signature header has no `v1` signature.');
  return { timestamp, signatures };
}

/**
 * Checks the `Svc-Signature` header against the raw body and returns the parsed event, or throws a
 * `WebhookVerificationError`. Pass several secrets while rolling one; any matching `v1` is accepted.
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  rawBody: RawBody,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent<T>> {
  const body = toBytes(rawBody);
  if (!signatureHeader) throw new WebhookVerificationError('missing_header', 'The Svc-Signature header is missing.');
  const { timestamp, signatures } = parseSignatureHeader(signatureHeader);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  let matched = false;
  for (const s of secrets) {
    const expected = await hmacHex(s, timestamp, body);
    for (const candidate of signatures) matched = constantTimeEqual(expected, candidate) || matched;
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'No v1 signature matches the body and secret.');
  const { toleranceSeconds = 300, now = new Date() } = options;
  const nowSeconds = typeof now === 'number' ? now : Math.floor(now.getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `The signature time is ${nowSeconds - timestamp} s from now; at most ${toleranceSeconds} s is accepted.`,
    );
  }
  return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<T>;
}

/** Builds a `Svc-Signature` value for a body, as the service does: for tenants' own tests. */
export async function signWebhook(
  rawBody: string | Uint8Array,
  secret: string | readonly string[],
  options: { timestamp?: number } = {},
): Promise<string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const body = toBytes(rawBody);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const parts = [`t=${timestamp}`];
  for (const s of secrets) parts.push(`v1=${await hmacHex(s, timestamp, body)}`);
  return parts.join(',');
}
