import { randomInt } from 'node:crypto';
import { slugify } from '../../../core/slug';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The slug a name gives: accents dropped, lower case, words joined by `-` (`event` when nothing is left). */
export function slugOf(name: string): string {
  const slug = slugify(name, 80);
  return slug || 'event';
}

/** The slug with a random 5-character suffix, for a name whose slug is taken. */
export const suffixed = (slug: string) => `${slug}-${Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;
