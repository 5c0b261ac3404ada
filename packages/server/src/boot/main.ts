import { loadConfig } from './config';
import { ensureDemoTenant } from './demo-tenant';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';
import { localSecret, newEncryptionKey, newOperatorToken } from './local-secrets';
import { createLogger, logWritten } from './logger';
import { startServer } from './server';

async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  const operatorToken = config.SVC_OPERATOR_TOKEN ?? localSecret(config.SVC_DATA_DIR, 'operator-token', newOperatorToken);
  const encryptionKey = config.SVC_ENCRYPTION_KEY ?? localSecret(config.SVC_DATA_DIR, 'encryption-key', newEncryptionKey);

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log.info('DATABASE_URL is not set: starting an embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(config.SVC_DATA_DIR, Number(process.env.SVC_EMBEDDED_PG_PORT ?? 54329), log);
    databaseUrl = embedded.url;
  }

  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer({ ...config, DATABASE_URL: databaseUrl, SVC_OPERATOR_TOKEN: operatorToken, SVC_ENCRYPTION_KEY: encryptionKey }, log);
  } catch (err) {
    // A start that fails (a wrong encryption key, a port in use) leaves no embedded PostgreSQL behind.
    await embedded?.stop();
    throw err;
  }
  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down: draining requests and jobs');
    try {
      await running.stop();
      await embedded?.stop();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // The signal often comes twice: to the whole process group (Ctrl-C, `kill -- -pgid`, systemd) and again from
  // `pnpm start`, which forwards it. A second one must not kill the drain (Node's default), so it is ignored.
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return log.info({ signal }, 'already shutting down');
    stopping = true;
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  // Only now that a signal drains the server does it say it listens: a stop asked for at once must not kill it.
  log.info({ url: running.url }, 'listening');
  try {
    const banner = await ensureDemoTenant(running.ctx.db, running.url, operatorToken);
    // The banner goes straight to stdout: the log lines before it are written first, so it comes after them.
    await logWritten(log);
    if (banner) process.stdout.write(`${banner}\n`);
  } catch (err) {
    // A stop during the first start's demo tenant closes the pool under it; that is not a failed start.
    if (!stopping) throw err;
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
