import pg from 'pg';

/**
 * How many distinct statements a process prepares, each kept by every pooled connection's backend with its
 * plan. The hot statements are a few dozen; past the bound, statements run unnamed.
 */
const MAX_PREPARED = 500;
/** A statement is prepared the third time it is run: one-off texts (an `in (…)` list of a rare length) never are. */
const PREPARE_AFTER = 3;
const MAX_SIGHTINGS = 10_000;

/**
 * Which statements a pool has seen and which it prepares, by text. One per pool (`preparingClient`): the bound
 * is per process in production, where there is one pool, and each test file's pool starts afresh.
 */
class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly sightings = new Map<string, number>();

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= MAX_PREPARED) return known;
    const seen = (this.sightings.get(text) ?? 0) + 1;
    if (seen < PREPARE_AFTER) {
      if (this.sightings.size >= MAX_SIGHTINGS) this.sightings.clear();
      this.sightings.set(text, seen);
      return undefined;
    }
    this.sightings.delete(text);
    const name = `svc_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

/**
 * A `pg` client that runs each parameterised statement it has seen a few times as a named prepared statement,
 * once parsed per connection. PostgreSQL then neither parses nor (after a few runs, when a generic plan is as good) plans
 * the hot statements again: for a session open, most of the database's work per request was parsing and
 * planning its half-dozen statements. Statements without parameters (`commit`, `rollback`) run as they are.
 *
 * A transaction's `begin` is not waited for: the connection is pipelined, and `begin` is written together with
 * the transaction's first statement, so each transaction costs one round trip (and one socket write) fewer.
 * The server still runs them in order, each with its own sync, so a failing statement fails as before; `begin`
 * itself can only fail with the connection, and then so does every statement behind it.
 */
class PreparingClient extends pg.Client {
  protected readonly statements: StatementNames = new StatementNames();

  /**
   * Statements this connection prepared before a migration changed their tables' columns: PostgreSQL refuses
   * to run them again (`cached plan must not change result type`), so they run unnamed from then on.
   */
  private readonly stale = new Set<string>();

  constructor(config?: pg.ClientConfig) {
    super({ ...config, pipeline: true } as pg.ClientConfig);
  }

  // pg's overloads cannot be restated in a subclass; the arguments are passed through as they came.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const promiseForm = args.length === 2 && Array.isArray(values);
    // Only the promise form (Kysely's): a call with a callback is passed through as it came.
    if (promiseForm && text === 'begin' && values.length === 0) return this.beginWithNextStatement() as never;
    if (promiseForm && typeof text === 'string' && values.length > 0) {
      const name = this.statements.nameOf(text);
      if (name && !this.stale.has(name)) {
        const running = (super.query as (...a: unknown[]) => Promise<unknown>)({ name, text, values });
        return running.catch((err: { code?: string }) => {
          if (err?.code === '0A000') this.stale.add(name);
          throw err;
        }) as never;
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private beginWithNextStatement(): Promise<BeginResult> {
    // Held back until the caller's first statement is written behind it (statements of one turn of the
    // event loop), then sent in one write.
    const { stream } = (this as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection;
    stream.cork();
    setImmediate(() => stream.uncork());
    (super.query as (...a: unknown[]) => Promise<unknown>)('begin').catch(() => {});
    return Promise.resolve(BEGUN);
  }
}

interface BeginResult {
  command: string;
  rowCount: null;
  rows: never[];
}
const BEGUN: BeginResult = Object.freeze({ command: 'BEGIN', rowCount: null, rows: [] as never[] });

/** A client class for one pool: its connections share which statements they prepare and under what names. */
export function preparingClient(): typeof pg.Client {
  const statements = new StatementNames();
  return class extends PreparingClient {
    protected override readonly statements = statements;
  };
}
