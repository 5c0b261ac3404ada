import pg from 'pg';

/**
 * How many distinct statements a process prepares. Kysely's statements are few and fixed (only `in (…)` lists
 * of varying length make new texts), so this is never reached in practice; past it, statements run unnamed.
 */
const MAX_PREPARED = 1000;

const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_PREPARED) return known;
  const name = `svc_${names.size + 1}`;
  names.set(text, name);
  return name;
}

/**
 * A `pg` client that runs each parameterised statement as a named prepared statement, once parsed per
 * connection. PostgreSQL then neither parses nor (after a few runs, when a generic plan is as good) plans
 * the hot statements again: for a session open, most of the database's work per request was parsing and
 * planning its half-dozen statements. Statements without parameters (`begin`, `commit`) run as they are.
 */
export class PreparingClient extends pg.Client {
  // pg's overloads cannot be restated in a subclass; the arguments are passed through as they came.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && args.length === 2) {
      const name = nameOf(text);
      if (name) return (super.query as (...a: unknown[]) => never)({ name, text, values });
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
