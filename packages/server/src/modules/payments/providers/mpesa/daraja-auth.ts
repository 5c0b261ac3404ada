import { constants, createHash, publicEncrypt } from 'node:crypto';

/** Daraja's timestamp, `YYYYMMDDHHmmss` in Nairobi time (East Africa Time, UTC+3, no daylight saving). */
export function darajaTimestamp(at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Africa/Nairobi',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}${get('month')}${get('day')}${get('hour')}${get('minute')}${get('second')}`;
}

/** The STK password: base64 of shortcode, passkey and the same timestamp the request carries. */
export const stkPassword = (shortcode: string, passkey: string, timestamp: string) =>
  Buffer.from(`${shortcode}${passkey}${timestamp}`, 'utf8').toString('base64');

/**
 * Daraja's `SecurityCredential`: the initiator password encrypted with Safaricom's public certificate
 * (RSA, PKCS#1 v1.5 padding), in base64. A certificate or a bare public key in PEM both do.
 */
export const securityCredential = (initiatorPassword: string, certificatePem: string) =>
  publicEncrypt({ key: certificatePem, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(initiatorPassword, 'utf8')).toString('base64');

interface CachedToken {
  token: Promise<string>;
  expiresAt: number;
}

/** Tokens are kept a minute less than Daraja grants them, so that none is used as it expires. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * OAuth tokens per API address and credentials, kept until they expire. The key holds a hash of the
 * secret, never the secret; one fetch serves every caller that asks while it runs.
 */
export class DarajaTokenCache {
  private readonly tokens = new Map<string, CachedToken>();

  constructor(private readonly now: () => number = Date.now) {}

  static keyOf(baseUrl: string, consumerKey: string, consumerSecret: string): string {
    return createHash('sha256').update(`${baseUrl}\0${consumerKey}\0${consumerSecret}`).digest('hex');
  }

  /** The cached token, or the one `fetchToken` gets (which says for how many seconds it holds). */
  get(key: string, fetchToken: () => Promise<{ token: string; expiresInSeconds: number }>): Promise<string> {
    const hit = this.tokens.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.token;
    const entry: CachedToken = { token: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY };
    entry.token = fetchToken().then(
      ({ token, expiresInSeconds }) => {
        entry.expiresAt = this.now() + Math.max(0, expiresInSeconds * 1000 - EXPIRY_MARGIN_MS);
        return token;
      },
      (err: unknown) => {
        if (this.tokens.get(key) === entry) this.tokens.delete(key);
        throw err;
      },
    );
    this.tokens.set(key, entry);
    return entry.token;
  }

  /** Forgets a token Daraja no longer takes (`Invalid Access Token` before its time). */
  drop(key: string): void {
    this.tokens.delete(key);
  }
}

/** The process's cache: every client of the same credentials shares its token. */
export const darajaTokens = new DarajaTokenCache();
