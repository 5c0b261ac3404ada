import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { loadConfig, type Config } from './config';
import { runClusterMember, runClusterPrimary } from './cluster';
import { createLogger } from './logger';
import { runSingleProcess } from './single-process';

/** API processes on this machine: `SVC_WORKERS`, else one per core for `api` and one for the other roles. */
export function processCount(config: Config): number {
  const count = config.SVC_WORKERS ?? (config.SVC_ROLE === 'api' ? availableParallelism() : 1);
  // nginx-rtmp listens on one port and keeps its publishers in one process.
  if (config.SVC_ROLE === 'media' && count > 1) throw new Error('SVC_WORKERS applies to the api, worker and all roles: the media role runs one process.');
  return count;
}

async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  if (cluster.isWorker) return runClusterMember(config, log);
  const count = processCount(config);
  return count === 1 ? runSingleProcess(config, log) : runClusterPrimary(config, log, count);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
