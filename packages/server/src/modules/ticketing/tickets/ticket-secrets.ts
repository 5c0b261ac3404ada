import { createHash, randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: a secret read aloud or typed from paper is read right. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const TICKET_SECRET_LENGTH = 32;

/** A ticket's scanning secret: 32 characters from a 31-letter alphabet (about 158 bits). */
export function newTicketSecret(): string {
  let out = '';
  for (let i = 0; i < TICKET_SECRET_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** What a secret is found by: its SHA-256 (the secret has too much entropy for a slow hash to add anything). */
export const ticketSecretHash = (secret: string) => createHash('sha256').update(secret.toUpperCase()).digest('hex');

/** The 8-character booking code, from the same alphabet. */
export function newOrderCode(): string {
  let out = '';
  for (let i = 0; i < 8; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
