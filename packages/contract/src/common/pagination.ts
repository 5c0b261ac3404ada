import { z } from 'zod';
import { LIMITS } from './limits';

const { defaultLimit, maxLimit } = LIMITS.pagination;

/** Query parameters of every cursor-paginated list. */
export const CursorPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
  cursor: z.string().max(500).optional().describe('Opaque cursor from `meta.pagination.next_cursor` or `prev_cursor`.'),
  starting_after: z.string().max(255).optional().describe('Object ID: return the objects listed after it.'),
  ending_before: z.string().max(255).optional().describe('Object ID: return the objects listed before it.'),
});
export type CursorPageQuery = z.infer<typeof CursorPageQuerySchema>;

export const CursorPaginationSchema = z
  .object({
    limit: z.number().int(),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
  })
  .meta({ id: 'CursorPagination' });

export const cursorListOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: z.object({ pagination: CursorPaginationSchema }) });

/** Query of the older page-number lists (`/v1/keys`). */
export const PageNumberQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
});
export type PageNumberQuery = z.infer<typeof PageNumberQuerySchema>;

export const PageNumberPaginationSchema = z
  .object({
    current_page: z.number().int(),
    total_pages: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'PageNumberPagination' });

export const pageNumberListOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: z.object({ pagination: PageNumberPaginationSchema }) });

/** `{data: ...}` wrapper of single-object responses. */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** `created[gt|gte|lt|lte]` on a list: a range of creation times, each bound optional. */
export const CreatedRange = z.object({
  gt: z.iso.datetime({ offset: true }).optional(),
  gte: z.iso.datetime({ offset: true }).optional(),
  lt: z.iso.datetime({ offset: true }).optional(),
  lte: z.iso.datetime({ offset: true }).optional(),
});
