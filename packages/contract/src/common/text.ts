import { z } from 'zod';

/** A UTF-16 surrogate that is not half of a pair: not Unicode text, and PostgreSQL refuses it in `jsonb`. */
const LONE_SURROGATE = /\p{Surrogate}/u;

export const MALFORMED_TEXT_MESSAGE = 'Must be well-formed Unicode: a lone surrogate (such as \\ud800) is not text.';

/**
 * The one check every string of a request passes: well-formed Unicode. The contract's string schemas use it,
 * and the server applies it to every string and key of the path, the query and the body before validation,
 * so a route that declares a plain `z.string()` is covered too.
 */
export const isWellFormedText = (value: string): boolean => !LONE_SURROGATE.test(value);

/** The shared string schema: any string that is well-formed Unicode. */
export const TextSchema = z.string().refine(isWellFormedText, { message: MALFORMED_TEXT_MESSAGE });
