import type { Logger } from 'pino';
import type { Config } from './config';
import { ensureDemoTenant } from './demo-tenant';
import { logWritten } from './logger';
import { onStopSignal, setUpProcess } from './process-setup';
import { startServer } from './server';

/** One process runs the role (`SVC_WORKERS=1`, the default but for `api`). */
export async function runSingleProcess(given: Config, log: Logger): Promise<void> {
  const { config, embedded } = await setUpProcess(given, log);
  const startup = startServer(config, log);
  // The handler is in place before the server answers: as a container's first process, a stop signal that came
  // before it would be ignored outright, and the orchestrator would kill the process without a drain.
  const signals = onStopSignal(log, async (signal) => {
    log.info({ signal }, 'shutting down: draining requests and jobs');
    try {
      await (await startup.catch(() => undefined))?.stop();
      await embedded?.stop();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  });
  let running: Awaited<typeof startup>;
  try {
    running = await startup;
  } catch (err) {
    // A start that fails (a wrong encryption key, a port in use) leaves no embedded PostgreSQL behind.
    await embedded?.stop();
    throw err;
  }

  // Only now that a signal drains the server does it say it listens: a stop asked for at once must not kill it.
  log.info({ role: config.SVC_ROLE, url: running.url }, 'listening');
  if (!running.plan.migrates) return;
  try {
    const banner = await ensureDemoTenant(running.ctx.db, running.url, config.SVC_OPERATOR_TOKEN);
    // The banner goes straight to stdout: the log lines before it are written first, so it comes after them.
    await logWritten(log);
    if (banner) process.stdout.write(`${banner}\n`);
  } catch (err) {
    // A stop during the first start's demo tenant closes the pool under it; that is not a failed start.
    if (!signals.stopping()) throw err;
  }
}
