import type { Logger } from 'pino';
import type { Config } from './config';
import type { ServerConfig } from './context';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';
import { localSecret, newEncryptionKey, newOperatorToken } from './local-secrets';

export interface ProcessSetup {
  config: ServerConfig & { SVC_OPERATOR_TOKEN: string };
  embedded?: EmbeddedDatabase;
}

/**
 * What one machine fills in when the environment does not: the operator token and the encryption key kept
 * under the data directory, and an embedded PostgreSQL when `DATABASE_URL` is unset.
 */
export async function setUpProcess(config: Config, log: Logger): Promise<ProcessSetup> {
  const operatorToken = config.SVC_OPERATOR_TOKEN ?? localSecret(config.SVC_DATA_DIR, 'operator-token', newOperatorToken);
  const encryptionKey = config.SVC_ENCRYPTION_KEY ?? localSecret(config.SVC_DATA_DIR, 'encryption-key', newEncryptionKey);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log.info('DATABASE_URL is not set: starting an embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(config.SVC_DATA_DIR, Number(process.env.SVC_EMBEDDED_PG_PORT ?? 54329), log);
    databaseUrl = embedded.url;
  }
  return { config: { ...config, DATABASE_URL: databaseUrl, SVC_OPERATOR_TOKEN: operatorToken, SVC_ENCRYPTION_KEY: encryptionKey }, embedded };
}

/**
 * Runs `stop` once on SIGTERM or SIGINT. The signal often comes twice: to the whole process group (Ctrl-C,
 * `kill -- -pgid`, systemd) and again from `pnpm start`, which forwards it. A second one must not kill the
 * drain (Node's default), so it is ignored.
 */
export function onStopSignal(log: Logger, stop: (signal: string) => Promise<void>): { stopping: () => boolean } {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return log.info({ signal }, 'already shutting down');
    stopping = true;
    void stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { stopping: () => stopping };
}
