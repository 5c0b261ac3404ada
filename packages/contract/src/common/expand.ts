import { z } from 'zod';

const toList = (value: unknown): unknown =>
  value === undefined ? undefined : Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [value];

/**
 * `expand[]=a`, `expand[0]=a` and repeated `expand=a` all arrive as a list of dotted paths.
 * Which paths a read accepts is the server's to check (`400 invalid_expand_path` with the path in `param`).
 */
export const ExpandQuerySchema = z
  .preprocess(toList, z.array(z.string().min(1).max(200)).max(20))
  .optional()
  .describe('Related objects to include inline, as dotted paths up to two levels deep (for example `created_by`).');
