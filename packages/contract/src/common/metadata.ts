import { z } from 'zod';
import { LIMITS } from './limits';

const { maxKeys, maxKeyLength, maxValueLength } = LIMITS.metadata;

/** Caller-owned text map on every object. Violations are reported per key, e.g. `metadata.colour`. */
export const MetadataSchema = z
  .record(z.string(), z.string())
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

export const ExternalIdSchema = z.string().min(1).max(LIMITS.externalId.maxLength);
