import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, objectTypeOfId, type ObjectType } from '@svc/contract';
import { typeid } from 'typeid-js';

/** A new public ID: the type's prefix and a time-ordered UUIDv7 in base32, so IDs sort by creation. */
export function newId(type: ObjectType): string {
  return typeid(ID_PREFIXES[type]).toString();
}

/** True when `id` carries the prefix of `type`; anything else is answered `404` before touching the database. */
export function isIdOf(type: ObjectType, id: string): boolean {
  return objectTypeOfId(id) === type;
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
