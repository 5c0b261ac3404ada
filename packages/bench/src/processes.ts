import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface Running {
  child: ChildProcess;
  url: string;
  /**
   * Resident memory now, in MB (from /proc): of the largest Node process when it runs several (`SVC_WORKERS`,
   * the ceilings' cluster), since each process has its own memory ceiling.
   */
  rssMb: () => number;
  /** Resident memory of each of its Node processes (the process and its Node descendants), in MB. */
  rssByProcessMb: () => number[];
  /** CPU time its Node processes have used so far (user + system, all their threads), in seconds (from /proc). */
  cpuSeconds: () => number;
  stop: () => Promise<void>;
}

// USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`).
const CLOCK_TICKS = 100;

/** CPU time used so far by each PostgreSQL process on the machine (the server's connections among them), in seconds. */
export function postgresCpu(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // The process ended while being read.
    }
  }
  return byPid;
}

/** PostgreSQL's CPU seconds between two readings; a backend that exited in between is not counted. */
export function postgresCpuSince(before: Map<string, number>): number {
  let seconds = 0;
  for (const [pid, now] of postgresCpu()) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}

/** `/proc/<pid>/stat`'s fields after the parenthesised name (field 3 onwards), or `null` once it has exited. */
function statOf(pid: number): { name: string; fields: string[] } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { name: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
  } catch {
    return null;
  }
}

/** The process and its Node descendants (cluster members; not the nginx or ffmpeg a server may run). */
function node(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (!stat || !stat.name.startsWith('node')) continue;
    const parent = Number(stat.fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...(children.get(found[i]!) ?? []));
  return found;
}

// Fields 14 and 15 of /proc/<pid>/stat: utime and stime in clock ticks.
const cpuOf = (pid: number) => {
  const stat = statOf(pid);
  return stat ? (Number(stat.fields[11]) + Number(stat.fields[12])) / CLOCK_TICKS : 0;
};

function rssOfTree(root: number): Map<number, number> {
  const rss = new Map<number, number>();
  for (const pid of node(root)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) rss.set(pid, Number(m[1]) / 1024);
    } catch {
      // It exited while being read.
    }
  }
  return rss;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a process and waits until it serves: for the line that carries its URL, or until `knownUrl` answers. */
export async function start(command: string, args: string[], env: Record<string, string>, cwd = ROOT, knownUrl?: string): Promise<Running> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let listening = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      // Once it serves, its log lines are only drained (reading them must not take the CPU being measured), but
      // for errors (pino levels 50 and 60), which go to the bench's own stderr.
      if (listening) {
        if (chunk.includes('"level":50') || chunk.includes('"level":60')) {
          for (const line of chunk.toString().split('\n')) if (/"level":[56]0/.test(line)) process.stderr.write(`server: ${line.slice(0, 2000)}\n`);
        }
        return;
      }
      // Only the tail is kept, for the error message if the process dies.
      out = (out + chunk.toString()).slice(-20_000);
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) (listening = true), resolve(m[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-20_000)));
    void exited.then(() => reject(new Error(`${command} exited before it listened:\n${out.slice(-2000)}`)));
    if (knownUrl) {
      void (async () => {
        while (child.exitCode === null) {
          const ok = await fetch(`${knownUrl}/v1/status`).then((r) => r.ok, () => false);
          if (ok) return (listening = true), resolve(knownUrl);
          await sleep(100);
        }
      })();
    }
  });
  // Keep reading so a full pipe never blocks the process.
  child.stdout!.resume();
  return {
    child,
    url,
    rssMb: () => Math.max(0, ...rssOfTree(child.pid!).values()),
    rssByProcessMb: () => [...rssOfTree(child.pid!).values()].map(Math.round),
    cpuSeconds: () => node(child.pid!).reduce((sum, pid) => sum + cpuOf(pid), 0),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
