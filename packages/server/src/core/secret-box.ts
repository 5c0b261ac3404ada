import { createCipheriv, createDecipheriv } from 'node:crypto';
import { randomBytesPooled } from './random-pool';

const VERSION = 'v1';
/** Unsealed secrets kept in memory, and the largest sealed text kept (keys and passphrases, not stored answers). */
const OPENED_MAX = 5_000;
const OPENED_MAX_SEALED_LENGTH = 512;

/** Parses `SVC_ENCRYPTION_KEY`: 32 bytes as base64 (44 characters) or hex (64 characters). */
export function parseEncryptionKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('SVC_ENCRYPTION_KEY must be 32 bytes, as base64 or hex');
  return key;
}

/**
 * Secrets the server must read back (stream keys, webhook signing secrets, provider credentials) are stored
 * as AES-256-GCM ciphertext: `v1.<iv>.<tag>.<ciphertext>`, base64url. The optional `context` (for example
 * the row's id) is bound as associated data, so a ciphertext copied onto another row does not decrypt.
 */
export class SecretBox {
  /**
   * Plaintexts of small sealed values already opened, by context and sealed text. A list of 20 live streams
   * opened 40 of them per page, each a new AES-GCM decipher (a fifth of the page's CPU). A hit needs the
   * same ciphertext, IV and tag that authenticated before under the same context, so it answers as decrypting
   * would; the plaintexts are in this process's memory while they are served anyway. Keyed by the sealed text
   * alone, its context kept beside it: a key joining the two was a new string to build and hash on every call.
   */
  private readonly opened = new Map<string, { context: string; plaintext: string }>();

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  encrypt(plaintext: string, context = ''): string {
    const iv = randomBytesPooled(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(sealed: string, context = ''): string {
    if (sealed.length > OPENED_MAX_SEALED_LENGTH) return this.open(sealed, context);
    const known = this.opened.get(sealed);
    if (known !== undefined && known.context === context) return known.plaintext;
    const plaintext = this.open(sealed, context);
    // Oldest first out: a bound, not an eviction policy; the hot values are opened again at once.
    if (known === undefined && this.opened.size >= OPENED_MAX) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(sealed, { context, plaintext });
    return plaintext;
  }

  private open(sealed: string, context: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
