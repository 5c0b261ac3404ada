import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { Config } from './config';
import type { ServerConfig } from './context';
import { ensureDemoTenant } from './demo-tenant';
import { logWritten } from './logger';
import { onStopSignal, setUpProcess } from './process-setup';
import { planOf, planOfClusterMember } from './roles';
import { startServer } from './server';

const MEMBER_INDEX = 'SVC_CLUSTER_MEMBER';

/**
 * `SVC_WORKERS` processes on one port (node:cluster: the primary accepts and hands connections round-robin).
 * The primary migrates (for `all`), holds the embedded PostgreSQL if any, restarts a member that dies, and on
 * SIGTERM drains every member before it exits. Nothing is shared in memory: every rule that must hold across
 * processes holds in PostgreSQL, as it must across machines.
 */
export async function runClusterPrimary(given: Config, log: Logger, count: number): Promise<void> {
  const { config, embedded } = await setUpProcess(given, log);
  const plan = planOf(config.SVC_ROLE);
  if (plan.migrates) {
    const { db } = createDatabase(config.DATABASE_URL, 1);
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
  }
  const env = { DATABASE_URL: config.DATABASE_URL, SVC_OPERATOR_TOKEN: config.SVC_OPERATOR_TOKEN, SVC_ENCRYPTION_KEY: config.SVC_ENCRYPTION_KEY };
  const members = new Map<number, Worker>();
  let stopping = false;
  let url = '';
  let started: () => void;
  let failed: (err: Error) => void;
  const allListening = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
  const listening = new Set<number>();

  const fork = (index: number) => {
    const member = cluster.fork({ ...env, [MEMBER_INDEX]: String(index) });
    members.set(index, member);
    member.on('message', (m: { listening?: string }) => {
      if (!m.listening) return;
      url = m.listening;
      listening.add(index);
      if (listening.size === count) started();
    });
    member.on('exit', (code, signal) => {
      if (members.get(index) === member) members.delete(index);
      if (stopping) return;
      if (!listening.has(index)) return failed(new Error(`API process ${index + 1} of ${count} did not start (exit ${code ?? signal})`));
      log.error({ member: index, pid: member.process.pid, code, signal }, 'API process died: starting another');
      fork(index);
    });
  };
  const stopAll = async () => {
    stopping = true;
    const exits = [...members.values()].map((m) => new Promise((resolve) => (m.isDead() ? resolve(null) : m.once('exit', resolve))));
    for (const m of members.values()) m.process.kill('SIGTERM');
    await Promise.all(exits);
    await embedded?.stop();
  };
  // In place before any process starts: as a container's first process, a stop signal that came before it would
  // be ignored outright, and the orchestrator would kill every process without a drain.
  onStopSignal(log, async (signal) => {
    log.info({ signal }, 'shutting down: draining every API process');
    await stopAll();
    log.info('stopped');
    process.exit(0);
  });
  for (let i = 0; i < count; i++) fork(i);
  try {
    await allListening;
  } catch (err) {
    await stopAll();
    throw err;
  }
  log.info({ role: config.SVC_ROLE, workers: count, url }, 'listening');
  if (!plan.migrates) return;
  const { db } = createDatabase(config.DATABASE_URL, 1);
  try {
    const banner = await ensureDemoTenant(db, url, config.SVC_OPERATOR_TOKEN);
    await logWritten(log);
    if (banner) process.stdout.write(`${banner}\n`);
  } finally {
    await db.destroy();
  }
}

/** One of the primary's processes: the primary filled in the database and the secrets. */
export async function runClusterMember(config: Config, log: Logger): Promise<void> {
  const index = Number(process.env[MEMBER_INDEX] ?? 0);
  const running = await startServer(config as ServerConfig, log, planOfClusterMember(config.SVC_ROLE, index));
  onStopSignal(log, async () => {
    try {
      await running.stop();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  });
  process.send?.({ listening: running.url });
}
