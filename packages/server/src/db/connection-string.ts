/** One server of a connection string. */
export interface HostPort {
  host: string;
  port: number;
}

/**
 * What a session must be to be kept (libpq's `target_session_attrs`): `read-write` checks
 * `SHOW transaction_read_only` is `off`, `primary` that the server is not in recovery; `any` takes the first answer.
 */
export type SessionAttrs = 'any' | 'read-write' | 'primary';

export interface ParsedConnectionString {
  hosts: HostPort[];
  attrs: SessionAttrs;
  /** The same connection string naming only `host`, without `target_session_attrs`, as node-postgres reads it. */
  urlFor: (host: HostPort) => string;
}

const DEFAULT_PORT = 5432;
const ATTRS: readonly SessionAttrs[] = ['any', 'read-write', 'primary'];
const URL_FORM = /^(postgres(?:ql)?:\/\/)([^/?#]*)([^?#]*)(?:\?([^#]*))?$/;

export const hostLabel = (h: HostPort) => (h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`);

function parseHost(spec: string, defaultPort: number): HostPort {
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(spec);
  const plain = /^([A-Za-z0-9_.%-]+)(?::(\d+))?$/.exec(spec);
  const m = v6 ?? plain;
  if (!m) throw new Error(`not a host[:port] of a connection string: ${spec || '(empty)'}`);
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`not a port: ${m[2]}`);
  return { host: decodeURIComponent(m[1]!), port };
}

/**
 * Reads libpq's URL form with several hosts (`postgres://user@h1:5432,h2:5432/db?target_session_attrs=read-write`,
 * as `pg_autoctl show uri` prints it), which node-postgres does not. `null` for a string node-postgres reads
 * itself as it is: one host and no `target_session_attrs`. Throws on a malformed string; the message holds no
 * password.
 */
export function parseConnectionString(connectionString: string): ParsedConnectionString | null {
  const m = URL_FORM.exec(connectionString);
  if (!m) throw new Error('the connection string must look like postgres://[user[:password]@]host[:port][,host[:port]…]/database[?…]');
  const [scheme, authority, path, query] = [m[1]!, m[2]!, m[3]!, m[4] ?? ''];
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const hostList = authority.slice(at + 1);
  const params = new URLSearchParams(query);
  const attrs = (params.get('target_session_attrs') ?? 'any') as SessionAttrs;
  if (!ATTRS.includes(attrs)) throw new Error(`target_session_attrs=${attrs} is not supported (any, read-write or primary)`);
  if (!hostList.includes(',') && !params.has('target_session_attrs')) return null;
  // libpq: a port given as a parameter serves every host that names none.
  const portParam = params.get('port');
  const defaultPort = portParam && /^\d+$/.test(portParam) ? Number(portParam) : DEFAULT_PORT;
  const hosts = hostList.split(',').map((spec) => parseHost(spec, defaultPort));
  params.delete('target_session_attrs');
  params.delete('port');
  const rest = params.toString();
  return {
    hosts,
    attrs,
    urlFor: (h) => `${scheme}${userinfo}${h.host.includes(':') ? `[${h.host}]` : encodeURIComponent(h.host)}:${h.port}${path}${rest ? `?${rest}` : ''}`,
  };
}

/** For the configuration's check: a URL node-postgres reads, or libpq's multi-host form. */
export function isConnectionString(value: string): boolean {
  try {
    if (parseConnectionString(value)) return true;
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
