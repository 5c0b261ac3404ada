import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, objectTypeOfId, type ObjectType } from '@svc/contract';
import { typeid } from 'typeid-js';

/** A new public ID: the type's prefix and a time-ordered UUIDv7 in base32, so IDs sort by creation. */
export function newId(type: ObjectType): string {
  return typeid(ID_PREFIXES[type]).toString();
}

/** The random part of every ID: a UUIDv7 in TypeID's lower-case Crockford base32 (26 characters, the first 0-7). */
const ID_SUFFIX = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/**
 * True when `id` is a well-formed ID of `type`: its prefix and a TypeID suffix. Anything else (another
 * prefix, stray characters, an id-shaped string from a token header) is answered `404` without a query.
 */
export function isIdOf(type: ObjectType, id: string): boolean {
  return objectTypeOfId(id) === type && ID_SUFFIX.test(id.slice(ID_PREFIXES[type].length + 1));
}

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. The spec gives some objects uuid ids; this
 * form makes them sort by creation like every other id, so cursor lists work the same way.
 */
export function newUuidV7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text, for secrets (API keys, signing secrets); about 5.95 bits per character. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
