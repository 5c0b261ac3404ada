import { sql, type RawBuilder } from 'kysely';

/**
 * A value that picks the rows of a partial index (`where status = 'pending'`), written into the statement's text
 * rather than sent as a parameter. The server's statements are prepared (`prepared-statements.ts`), and after a
 * few runs PostgreSQL plans one for any parameters (a generic plan): that plan cannot know that `$1` is
 * `'pending'`, so it cannot use an index holding only the pending rows and reads the whole table, every run. The
 * sweeps that run every second or minute over tables that only grow (messages, webhook deliveries, sessions)
 * would each read every row ever written.
 */
export const literal = <V extends string>(value: V): RawBuilder<V> => sql.lit(value);
