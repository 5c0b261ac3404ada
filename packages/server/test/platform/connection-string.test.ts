import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config';
import { isConnectionString, parseConnectionString } from '../../src/db/connection-string';

/** libpq's multi-host URL form (docs/self-hosting.md, Failover), read for node-postgres, which takes one host. */
describe('connection strings with several hosts', () => {
  it('reads the hosts in order, their ports and target_session_attrs, as pg_autoctl show uri prints them', () => {
    const p = parseConnectionString('postgres://autoctl@db1.internal:5432,db2.internal:6432/svc?target_session_attrs=read-write&sslmode=require')!;
    expect(p.hosts).toEqual([
      { host: 'db1.internal', port: 5432 },
      { host: 'db2.internal', port: 6432 },
    ]);
    expect(p.attrs).toBe('read-write');
    // Each host as a URL node-postgres reads: the other parameters stay, target_session_attrs goes.
    expect(p.urlFor(p.hosts[1]!)).toBe('postgres://autoctl@db2.internal:6432/svc?sslmode=require');
  });

  it('keeps the user and the password, takes IPv6 addresses, and gives a host without a port the port parameter or 5432', () => {
    const p = parseConnectionString('postgresql://svc:s%40cret%2Fx@[::1]:5433,10.0.0.2,db3/app?port=5440')!;
    expect(p.hosts).toEqual([
      { host: '::1', port: 5433 },
      { host: '10.0.0.2', port: 5440 },
      { host: 'db3', port: 5440 },
    ]);
    expect(p.attrs).toBe('any');
    expect(p.urlFor(p.hosts[0]!)).toBe('postgresql://svc:s%40cret%2Fx@[::1]:5433/app');
    expect(parseConnectionString('postgres://u@h1,h2/db')!.hosts.map((h) => h.port)).toEqual([5432, 5432]);
  });

  it('leaves a one-host string without target_session_attrs to node-postgres, and reads one with it', () => {
    expect(parseConnectionString('postgres://postgres@127.0.0.1:5432/svc')).toBeNull();
    expect(parseConnectionString('postgres://u:p@h:5432/db?target_session_attrs=primary')!.hosts).toEqual([{ host: 'h', port: 5432 }]);
  });

  it('refuses malformed strings and attributes it cannot check, without echoing a password', () => {
    expect(() => parseConnectionString('postgres://u@h1:5432,h2:99999/db')).toThrow(/not a port/);
    expect(() => parseConnectionString('postgres://u@h1,,h2/db')).toThrow(/host\[:port\]/);
    expect(() => parseConnectionString('postgres://u@h1,h2/db?target_session_attrs=prefer-standby')).toThrow(/not supported/);
    expect(() => parseConnectionString('mysql://u:hunter2@h1,h2/db')).toThrow(/postgres:\/\//);
    expect(() => parseConnectionString('mysql://u:hunter2@h1,h2/db')).not.toThrow(/hunter2/);
    expect(isConnectionString('postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write')).toBe(true);
    expect(isConnectionString('postgres://u@h1/db')).toBe(true);
    expect(isConnectionString('h1,h2')).toBe(false);
  });

  it('is accepted as DATABASE_URL and DATABASE_DIRECT_URL, and a malformed one stops the start', () => {
    const multi = 'postgres://svc@db1:5432,db2:5432/svc?target_session_attrs=read-write';
    const config = loadConfig({ DATABASE_URL: multi, DATABASE_DIRECT_URL: multi });
    expect(config.DATABASE_URL).toBe(multi);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://svc@db1:5432,db2:x/svc' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
  });
});
