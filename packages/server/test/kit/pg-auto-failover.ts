import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

export const PG_AUTOCTL = process.env.PG_AUTOCTL_PATH ?? '/usr/bin/pg_autoctl';
const PG_CTL = process.env.PG_CTL_PATH ?? '/usr/lib/postgresql/15/bin/pg_ctl';
const POSTGRES_UID = 'postgres';

export interface FormationNode {
  name: string;
  port: number;
  pgdata: string;
  process: ChildProcess;
}

export interface Formation {
  monitorPort: number;
  nodes: FormationNode[];
  /** Each node's state as the monitor last heard it (`primary`, `secondary`, `wait_primary`, …). */
  states: () => Promise<Record<string, string>>;
  /** Waits until `want(states)` holds, or fails after `ms` with the states and the last log lines. */
  waitFor: (want: (s: Record<string, string>) => boolean, ms: number) => Promise<Record<string, string>>;
  /** The node's pg_autoctl and its PostgreSQL, all killed at once with SIGKILL: the machine is gone. */
  kill: (name: string) => void;
  log: (name: string) => string;
  stop: () => Promise<void>;
}

/**
 * A pg_auto_failover formation on this machine: a monitor, then `node1` (the primary) and `node2` (its
 * synchronous standby), each a `pg_autoctl` process on a free loopback port, in a temporary directory, run as
 * the `postgres` user when the test runs as root. Trusts local connections; nothing listens beyond loopback.
 */
export async function startFormation(): Promise<Formation> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pgaf-'));
  chmodSync(dir, 0o755);
  // pg_autoctl's pid files go to XDG_RUNTIME_DIR when it exists, else to /tmp/pg_autoctl.
  mkdirSync(join(dir, 'run'), { mode: 0o700 });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, POSTGRES_UID]).toString().trim());
    for (const path of [dir, join(dir, 'run')]) chownSync(path, id('-u'), id('-g'));
  }
  const logs = new Map<string, string>();
  const children: ChildProcess[] = [];
  const run = (name: string, args: string[]): ChildProcess => {
    // pg_autoctl keeps its configuration, state and pid files under the XDG directories: all in `dir`.
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_RUNTIME_DIR: join(dir, 'run'),
    };
    const argv = asRoot ? ['runuser', '-u', POSTGRES_UID, '--', PG_AUTOCTL, ...args] : [PG_AUTOCTL, ...args];
    // Its own process group, so the node can be killed whole (pg_autoctl, its services and PostgreSQL).
    const child = spawn(argv[0]!, argv.slice(1), { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    logs.set(name, '');
    const append = (c: Buffer) => logs.set(name, (logs.get(name)! + c.toString()).slice(-20_000));
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    children.push(child);
    return child;
  };
  const monitorPort = await freePort();
  run('monitor', ['create', 'monitor', '--pgdata', join(dir, 'monitor'), '--pgport', String(monitorPort), '--hostname', '127.0.0.1',
    '--auth', 'trust', '--no-ssl', '--pgctl', PG_CTL, '--run']);
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;

  const states = async (): Promise<Record<string, string>> => {
    const client = new pg.Client({ connectionString: monitorUrl, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ nodename: string; reportedstate: string }>('SELECT nodename, reportedstate FROM pgautofailover.node');
      return Object.fromEntries(rows.map((r) => [r.nodename, r.reportedstate]));
    } catch {
      return {};
    } finally {
      await client.end().catch(() => {});
    }
  };
  const tail = () => [...logs].map(([name, text]) => `--- ${name}\n${text.split('\n').slice(-15).join('\n')}`).join('\n');
  const waitFor = async (want: (s: Record<string, string>) => boolean, ms: number) => {
    const until = Date.now() + ms;
    for (;;) {
      const s = await states();
      if (want(s)) return s;
      if (Date.now() > until) throw new Error(`pg_auto_failover did not reach the state wanted: ${JSON.stringify(s)}\n${tail()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const monitorUp = async () => {
    const client = new pg.Client({ connectionString: monitorUrl, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1 FROM pgautofailover.node LIMIT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  };

  const nodes: FormationNode[] = [];
  const stop = async () => {
    const doomed = [...children.flatMap((c) => descendants(c.pid!)), ...nodes.flatMap((n) => postmasterTree(n.pgdata))];
    for (const pid of new Set(doomed)) killPid(pid);
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < 10; i++) {
      try {
        rmSync(dir, { recursive: true, force: true });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  };
  try {
    for (let until = Date.now() + 60_000; !(await monitorUp()); ) {
      if (Date.now() > until) throw new Error(`the pg_auto_failover monitor did not start:\n${tail()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const name of ['node1', 'node2']) {
      const port = await freePort();
      const pgdata = join(dir, name);
      const child = run(name, ['create', 'postgres', '--pgdata', pgdata, '--pgport', String(port), '--listen', '127.0.0.1',
        '--hostname', '127.0.0.1', '--name', name, '--auth', 'trust', '--no-ssl', '--pgctl', PG_CTL, '--monitor', monitorUrl, '--run']);
      nodes.push({ name, port, pgdata, process: child });
      // node1 comes up alone (`single`); node2 joins as its synchronous standby, after which node1 is `primary`.
      await waitFor((s) => (name === 'node1' ? s.node1 === 'single' : s.node1 === 'primary' && s.node2 === 'secondary'), 90_000);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    monitorPort,
    nodes,
    states,
    waitFor,
    kill: (name) => {
      const node = nodes.find((n) => n.name === name)!;
      // Every process the node started, found before any dies, so that none is left to restart another; and
      // PostgreSQL's postmaster (the first line of postmaster.pid) with its backends, should it have left the tree.
      for (const pid of new Set([...descendants(node.process.pid!), ...postmasterTree(node.pgdata)])) killPid(pid);
    },
    log: (name) => logs.get(name) ?? '',
    stop,
  };
}

/** `pid` and every process below it, from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent is the field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []));
  return all;
}

function postmasterTree(pgdata: string): number[] {
  const pidFile = join(pgdata, 'postmaster.pid');
  return existsSync(pidFile) ? descendants(Number(readFileSync(pidFile, 'utf8').split('\n')[0])) : [];
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Whether pg_auto_failover (Debian: postgresql-15-auto-failover) is installed here. */
export const pgAutoFailoverInstalled = () => existsSync(PG_AUTOCTL) && existsSync(PG_CTL);
