import { sql, type SelectQueryBuilder } from 'kysely';
import type { CursorPageQuery, PageNumberQuery } from '@svc/contract';
import { ApiError } from './errors';

type Direction = 'next' | 'prev';
interface Window {
  direction: Direction;
  anchor?: string;
}

/** The shape of every ID (`ls_` and 26 base32 characters), the only anchor a cursor of this server carries. */
const ISSUED_ID = /^[a-z]+_[0-9a-z]{26}$/;

/** Ids of the objects the spec gives uuids (ticketing's catalogue); this server makes them UUIDv7, so they sort by creation too. */
export const UUID_ANCHOR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const encodeCursor = (w: Required<Window>) => Buffer.from(JSON.stringify([w.direction === 'next' ? 'n' : 'p', w.anchor])).toString('base64url');

function decodeCursor(cursor: string, anchors: RegExp): Required<Window> {
  try {
    const [d, anchor] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    // Anchors are IDs this server issued; anything else (U+0000 included, which no query could carry) is refused here.
    if ((d !== 'n' && d !== 'p') || typeof anchor !== 'string' || !anchors.test(anchor)) throw new Error();
    return { direction: d === 'n' ? 'next' : 'prev', anchor };
  } catch {
    throw ApiError.of('invalid_cursor', { param: 'cursor' });
  }
}

function windowOf(page: CursorPageQuery, anchors: RegExp): Window {
  const given = [page.cursor, page.starting_after, page.ending_before].filter((v) => v !== undefined);
  if (given.length > 1) {
    throw ApiError.of('invalid_request', {
      message: 'Send at most one of `cursor`, `starting_after` and `ending_before`.',
      param: 'cursor',
    });
  }
  if (page.cursor) return decodeCursor(page.cursor, anchors);
  // A uuid column cannot be compared with other text: a boundary of another shape names no object of this list.
  for (const param of ['starting_after', 'ending_before'] as const) {
    if (anchors !== ISSUED_ID && page[param] !== undefined && !anchors.test(page[param])) {
      throw ApiError.of('invalid_request', { message: `\`${param}\` must be an id of this list.`, param });
    }
  }
  if (page.starting_after) return { direction: 'next', anchor: page.starting_after };
  if (page.ending_before) return { direction: 'prev', anchor: page.ending_before };
  return { direction: 'next' };
}

export interface CursorPage<T> {
  data: T[];
  meta: { pagination: { limit: number; has_more: boolean; next_cursor: string | null; prev_cursor: string | null } };
}

/** The rows of one parent (an event's tickets, its check-ins), kept apart for an index that leads with its column. */
export interface Parent {
  column: string;
  value: string;
  /** How the index orders the ids of one parent (`(event_id, id desc)` is `'desc'`); `'asc'` by default. */
  idsInIndex?: 'asc' | 'desc';
}

/**
 * One parent's rows in id order from a keyset position (`past` an id, or from the end the order starts at), over an
 * index on `(parent column, id)`. The parent is bounded by ranges rather than by equality, and the order is that
 * index's, so no other index can serve the page. With `parent = $1 order by id`, PostgreSQL may walk the primary key
 * in id order instead and filter by parent, reading every other parent's rows on the way: it takes a parent's rows
 * for evenly spread over the table, while a recent event's are all at one end (the first 250 of a recent event's
 * 100,000 attendees read 2,000,000 other tickets in 0.5 s).
 */
export function withinParent<Q extends SelectQueryBuilder<any, any, any>>(query: Q, parent: Parent, idColumn: string, order: 'asc' | 'desc', past?: string): Q {
  const [column, id] = [sql.ref(parent.column), sql.ref(idColumn)];
  const bound =
    past === undefined
      ? sql<boolean>`${column} >= ${parent.value} and ${column} <= ${parent.value}`
      : order === 'asc'
        ? sql<boolean>`(${column}, ${id}) > (${parent.value}, ${past}) and ${column} <= ${parent.value}`
        : sql<boolean>`(${column}, ${id}) < (${parent.value}, ${past}) and ${column} >= ${parent.value}`;
  // The parent's column takes whichever direction lets the index be read straight, forwards or backwards.
  const parentOrder = order === (parent.idsInIndex ?? 'asc') ? 'asc' : 'desc';
  return query.where(bound).orderBy(sql`${column} ${sql.raw(parentOrder)}, ${id} ${sql.raw(order)}`) as Q;
}

/**
 * Newest-first cursor pagination over a time-ordered ID column (IDs sort by creation). `next` walks to
 * older objects, `prev` to newer ones; `has_more` tells whether more lie in the direction walked.
 */
export async function paginate<DB, TB extends keyof DB, O extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  page: CursorPageQuery,
  /** The shape of the ids (the prefixed ids by default; `UUID_ANCHOR` for uuid columns). */
  anchors: RegExp = ISSUED_ID,
  /** One parent's rows, for a query not yet narrowed to it (see `withinParent`). */
  parent?: Parent,
): Promise<CursorPage<O>> {
  const { direction, anchor } = windowOf(page, anchors);
  const order = direction === 'next' ? 'desc' : 'asc';
  let q = query;
  if (parent) q = withinParent(q, parent, idColumn, order, anchor);
  else {
    const id = sql.ref(idColumn);
    if (anchor !== undefined) q = q.where(id as never, direction === 'next' ? '<' : '>', anchor as never);
    q = q.orderBy(id as never, order);
  }
  const rows = await q.limit(page.limit + 1).execute();
  const hasMore = rows.length > page.limit;
  const data = rows.slice(0, page.limit);
  if (direction === 'prev') data.reverse();
  const first = data[0]?.id;
  const last = data.at(-1)?.id;
  const olderExist = direction === 'next' ? hasMore : anchor !== undefined;
  const newerExist = direction === 'prev' ? hasMore : anchor !== undefined;
  return {
    data,
    meta: {
      pagination: {
        limit: page.limit,
        has_more: hasMore,
        next_cursor: olderExist && last ? encodeCursor({ direction: 'next', anchor: last }) : null,
        prev_cursor: newerExist && first ? encodeCursor({ direction: 'prev', anchor: first }) : null,
      },
    },
  };
}

export interface NumberedPage<T> {
  data: T[];
  meta: { pagination: { current_page: number; total_pages: number; per_page: number; total: number } };
}

/** The older page-number style (`/v1/keys`), newest first. */
export async function paginateByNumber<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  page: PageNumberQuery,
): Promise<NumberedPage<O>> {
  const [{ total }] = (await query
    .clearSelect()
    .select(sql<number>`count(*)::int`.as('total') as never)
    .execute()) as unknown as [{ total: number }];
  const data = await query
    .orderBy(sql.ref(idColumn) as never, 'desc')
    .limit(page.per_page)
    .offset((page.page - 1) * page.per_page)
    .execute();
  return {
    data,
    meta: {
      pagination: {
        current_page: page.page,
        total_pages: Math.max(1, Math.ceil(total / page.per_page)),
        per_page: page.per_page,
        total,
      },
    },
  };
}

/** `metadata[key]=value` filters: every pair must match (uses the column's GIN index). */
export function whereMetadata<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: string,
  filter: Record<string, string> | undefined,
): SelectQueryBuilder<DB, TB, O> {
  if (!filter || Object.keys(filter).length === 0) return query;
  return query.where(sql<boolean>`${sql.ref(column)} @> ${JSON.stringify(filter)}::jsonb` as never);
}
