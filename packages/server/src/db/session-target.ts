import pg from 'pg';
import { hostLabel, parseConnectionString, type HostPort, type ParsedConnectionString, type SessionAttrs } from './connection-string';

/** How long a probe waits for one host before it tries the next (libpq's `connect_timeout`). */
const PROBE_TIMEOUT_MS = 5_000;

/** Why a connected session does not meet `attrs`, or `null` when it does. */
async function unmet(client: pg.Client, attrs: SessionAttrs): Promise<string | null> {
  if (attrs === 'read-write') {
    const { rows } = await client.query<{ transaction_read_only: string }>('show transaction_read_only');
    return rows[0]?.transaction_read_only === 'off' ? null : 'read-only';
  }
  if (attrs === 'primary') {
    const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
    return rows[0]?.standby ? 'a standby' : null;
  }
  return null;
}

/**
 * The hosts of one connection string and the one found to meet its `target_session_attrs` last. Every pool and
 * client of the process on that string shares it, so after a failover the first to find the new primary leads the
 * others there. Hosts are probed in the order given, like libpq; a host found stays chosen until a connection to
 * it fails or no longer meets the attributes.
 */
class SessionTarget {
  private chosen: HostPort | null = null;
  private locating: Promise<HostPort> | null = null;

  constructor(private readonly parsed: ParsedConnectionString) {}

  get attrs(): SessionAttrs {
    return this.parsed.attrs;
  }

  host(): Promise<HostPort> {
    if (this.chosen) return Promise.resolve(this.chosen);
    this.locating ??= this.locate().finally(() => (this.locating = null));
    return this.locating;
  }

  forget(host: HostPort): void {
    if (this.chosen === host) this.chosen = null;
  }

  unmet(client: pg.Client): Promise<string | null> {
    return unmet(client, this.parsed.attrs);
  }

  private async locate(): Promise<HostPort> {
    const problems: string[] = [];
    for (const host of this.parsed.hosts) {
      const probe = new pg.Client({ connectionString: this.parsed.urlFor(host), connectionTimeoutMillis: PROBE_TIMEOUT_MS });
      probe.on('error', () => {});
      try {
        await probe.connect();
        const why = await unmet(probe, this.parsed.attrs);
        if (!why) return (this.chosen = host);
        problems.push(`${hostLabel(host)} is ${why}`);
      } catch (err) {
        problems.push(`${hostLabel(host)}: ${(err as Error).message}`);
      } finally {
        await probe.end().catch(() => {});
      }
    }
    throw new Error(`no database host accepts ${this.parsed.attrs} sessions now (${problems.join('; ')})`);
  }
}

const targets = new Map<string, SessionTarget>();

/** A client class that connects to the target's chosen host and checks the session before it is used. */
function targetedClient(Base: typeof pg.Client, target: SessionTarget): typeof pg.Client {
  return class TargetedClient extends Base {
    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      const connecting = this.connectToTarget().then(() => this);
      if (!callback) return connecting;
      // As node-postgres calls it: `null` and the client on success (pg-pool reads that), the error otherwise.
      const done = callback as (err: Error | null, c?: pg.Client) => void;
      connecting.then((c) => done(null, c), (err: Error) => done(err));
    }

    private async connectToTarget(): Promise<void> {
      const host = await target.host();
      // node-postgres reads these when it opens the socket, not before.
      this.host = host.host;
      this.port = host.port;
      try {
        await super.connect();
      } catch (err) {
        target.forget(host);
        throw err;
      }
      const why = await target.unmet(this).catch((err: Error) => err.message);
      if (why === null) return;
      // The host changed role since it was chosen (a failover): the next connection looks for the new one.
      target.forget(host);
      await this.end().catch(() => {});
      throw new Error(`the database at ${hostLabel(host)} no longer accepts ${target.attrs} sessions (${why})`);
    }
  };
}

/**
 * What node-postgres needs for `connectionString`: the string and `Base` as they are for one host, or, for libpq's
 * multi-host form and `target_session_attrs`, a client class that picks the host (docs/self-hosting.md, Failover).
 * Pass both to `pg.Pool` (or pg-boss), or build a client with `new Client({ connectionString })`.
 */
export function pgConnection(connectionString: string, Base: typeof pg.Client = pg.Client): { connectionString: string; Client: typeof pg.Client } {
  const parsed = parseConnectionString(connectionString);
  if (!parsed) return { connectionString, Client: Base };
  let target = targets.get(connectionString);
  if (!target) targets.set(connectionString, (target = new SessionTarget(parsed)));
  return { connectionString: parsed.urlFor(parsed.hosts[0]!), Client: targetedClient(Base, target) };
}
