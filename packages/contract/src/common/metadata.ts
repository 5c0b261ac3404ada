import { z } from 'zod';
import { LIMITS } from './limits';
import { TextSchema } from './text';

const { maxKeys, maxKeyLength, maxValueLength } = LIMITS.metadata;

/**
 * Keys that name parts of a JavaScript object's prototype chain. Parsers drop `__proto__` silently (it sets the
 * prototype; the server refuses it in any body before parsing reaches the schema), and code that reads the map
 * as an object could be misled by the others: all three are refused rather than stored.
 */
export const RESERVED_METADATA_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const MetadataKeySchema = TextSchema.refine((key) => !(RESERVED_METADATA_KEYS as readonly string[]).includes(key), {
  message: `Metadata keys must not be ${RESERVED_METADATA_KEYS.join(', ')}.`,
});

/** Caller-owned text map on every object. Violations are reported per key, e.g. `metadata.colour`. */
export const MetadataSchema = z
  .record(MetadataKeySchema, TextSchema)
  .superRefine((value, ctx) => {
    const keys = Object.keys(value);
    if (keys.length > maxKeys) ctx.addIssue({ code: 'custom', message: `At most ${maxKeys} keys are allowed.` });
    for (const key of keys) {
      if (key.length === 0 || key.length > maxKeyLength)
        ctx.addIssue({ code: 'custom', path: [key], message: `Keys must be 1 to ${maxKeyLength} characters.` });
      if (value[key]!.length > maxValueLength)
        ctx.addIssue({ code: 'custom', path: [key], message: `Values must be at most ${maxValueLength} characters.` });
    }
  })
  .meta({ id: 'Metadata', description: `Text keys to text values; at most ${maxKeys} keys, keys ${maxKeyLength} and values ${maxValueLength} characters.` });

/** Filters `metadata[key]=value` on list routes; the query parser turns them into an object. */
export const MetadataFilterSchema = z.record(z.string(), z.string()).optional().describe('Filter by metadata: `metadata[key]=value`, all must match.');

export const ExternalIdSchema = TextSchema.min(1).max(LIMITS.externalId.maxLength);
