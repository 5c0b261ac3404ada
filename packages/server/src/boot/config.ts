import { z } from 'zod';
import { isConnectionString } from '../db/connection-string';
import { checkMessagingConfig, MESSAGING_CONFIG } from './messaging-config';
import { checkPaymentsConfig, PAYMENTS_CONFIG } from './payments-config';

const DatabaseUrl = z.string().refine(isConnectionString, 'must be a postgres:// URL, with one host or several (host1:port,host2:port)');

const ConfigSchema = z.object({
  /** libpq's multi-host form (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`) is read too. */
  DATABASE_URL: DatabaseUrl.optional().describe('PostgreSQL connection string; unset starts an embedded PostgreSQL.'),
  /**
   * A direct connection to the same database, for what a transaction-mode pooler (PgBouncer) cannot carry:
   * LISTEN/NOTIFY and the job queue. Unset: `DATABASE_URL` serves for everything.
   */
  DATABASE_DIRECT_URL: DatabaseUrl.optional(),
  /**
   * Named prepared statements on the pool's connections: `auto` (the default) turns them off when
   * `DATABASE_DIRECT_URL` differs from `DATABASE_URL`, that is when a pooler sits in between.
   */
  SVC_PREPARED_STATEMENTS: z.enum(['auto', 'on', 'off']).default('auto'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  /** Express's `trust proxy`: `true`, `false`, a hop count, or a list of proxy addresses. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  SVC_RATE_LIMIT_PUBLIC: z.coerce.number().int().min(1).default(20),
  /**
   * Where rate limits are counted: `shared` (the default) in the database, so several processes together admit a
   * bucket's limit; `process` in memory, exact for a single process and free of database calls, but N processes
   * then admit N times the limit.
   */
  SVC_RATE_LIMITS: z.enum(['shared', 'process']).default('shared'),
  PUBLIC_BASE_URL: z.url().optional(),
  /** Where tenants point their custom domains (CNAME target); unset: the host of `PUBLIC_BASE_URL`. */
  SVC_DOMAIN_TARGET: z.string().max(253).optional(),
  SVC_OPERATOR_TOKEN: z.string().min(24, 'SVC_OPERATOR_TOKEN must be at least 24 characters').optional(),
  SVC_ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$|^[0-9a-fA-F]{64}$/, 'SVC_ENCRYPTION_KEY must be 32 bytes, as base64 or hex')
    .optional(),
  SVC_DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seconds between the `requests summary` log lines of frequent routes (heartbeats), whose own lines are at `debug`. */
  SVC_LOG_SUMMARY_SECONDS: z.coerce.number().min(0.01).max(86_400).default(60),
  /**
   * Days the request log keeps each API request (`GET /v1/request_logs`), purged hourly; `0` records none.
   */
  SVC_REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(0).max(400).default(30),
  SVC_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * What this process runs (`boot/roles/`): `api` (requests), `worker` (jobs and background work), `media` (the
   * media network and its packaging, with the API beside it) or `all` (everything, and it migrates on start).
   */
  SVC_ROLE: z.enum(['all', 'api', 'worker', 'media']).default('all'),
  /** API processes sharing the port (node:cluster). Unset: one per core for `api`, one otherwise. */
  SVC_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  /**
   * On SIGTERM, how long the readiness check answers 503 while requests are still taken, so a load balancer
   * stops sending before the port closes.
   */
  SVC_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** How long counted page views of public event pages wait in memory before they are written together. */
  SVC_PAGE_VIEW_FLUSH_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
  /** Test mode: how long a simulated asset stays `preparing` before it becomes `ready` by itself. */
  SVC_SIMULATED_ASSET_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(3_000),
  /** Test mode: the largest file a simulated one-time upload URL takes. */
  SVC_SIMULATED_UPLOAD_MAX_BYTES: z.coerce.number().int().min(1).default(512 * 1024 * 1024),
  /**
   * Test-mode webhook endpoints on loopback addresses: `allow` (the default, for a developer's own machine; the
   * attempt log keeps only status and latency) or `deny` (shared hosts, where loopback services belong to others).
   */
  SVC_WEBHOOKS_PRIVATE_IN_TEST: z.enum(['allow', 'deny']).default('allow'),
  /** The short wait after a moment's clip window closes before the clip is cut. */
  SVC_CLIP_SETTLE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  /** The service's own media network (nginx-rtmp and ffmpeg): `auto` runs it when the binaries are present. */
  SVC_MEDIA_NETWORK: z.enum(['auto', 'off']).default('auto'),
  /** RTMP ingest port; `0` picks a free one (tests). */
  SVC_MEDIA_RTMP_PORT: z.coerce.number().int().min(0).max(65535).default(1935),
  /** Where live HLS, recordings, uploads and packaged assets are written; default `<SVC_DATA_DIR>/media`. */
  SVC_MEDIA_DIR: z.string().optional(),
  /**
   * S3-compatible object storage for uploads and packaged HLS (recordings, uploads, URLs):
   * `s3://ACCESS_KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX]?region=…[&force_path_style=true][&tls=false]`.
   * Unset: they stay under `SVC_MEDIA_DIR`. Read by `core/storage/storage-url.ts`.
   */
  SVC_STORAGE_URL: z.string().regex(/^s3:\/\//, 'SVC_STORAGE_URL must start with s3://').optional(),
  /** The RTMP address shown to encoders (`ingest.rtmp_url`), e.g. behind a proxy; its path must be `/live`. */
  SVC_MEDIA_PUBLIC_RTMP_URL: z
    .url({ protocol: /^rtmps?$/, error: 'SVC_MEDIA_PUBLIC_RTMP_URL must be an rtmp:// or rtmps:// URL' })
    .refine((v) => new URL(v).pathname.replace(/\/$/, '') === '/live', 'SVC_MEDIA_PUBLIC_RTMP_URL must end with the path /live')
    .optional(),
  /** Bound on the disk the media network may use; the oldest packaged files past it are reported, live segments trimmed. */
  SVC_MEDIA_MAX_DISK_MB: z.coerce.number().int().min(64).default(20_480),
  /** How many seconds of a live broadcast stay in the playlist and on disk (the DVR window). */
  SVC_MEDIA_DVR_WINDOW_SECONDS: z.coerce.number().int().min(10).max(21_600).default(60),
  /** Hours a stored idempotent response is kept; 24 (the API's promise) at least. */
  SVC_RETAIN_IDEMPOTENCY_HOURS: z.coerce.number().int().min(24).max(8_760).default(24),
  /** Days inbound provider notifications are kept to drop a provider's retries; longer than any provider retries. */
  SVC_RETAIN_PROVIDER_NOTIFICATIONS_DAYS: z.coerce.number().int().min(3).max(3_650).default(30),
  /** Days raw page views are kept; the analytics read the daily rollups, which are kept. */
  SVC_RETAIN_PAGE_VIEWS_DAYS: z.coerce.number().int().min(2).max(3_650).default(7),
  /** Days the text of a finished message (sent, delivered, failed, cancelled) is kept; the message's record stays. */
  SVC_RETAIN_MESSAGE_BODIES_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  ...MESSAGING_CONFIG,
  ...PAYMENTS_CONFIG,
})
  .superRefine(checkMessagingConfig)
  .superRefine(checkPaymentsConfig);

export type Config = z.infer<typeof ConfigSchema> & { baseUrl: string };

/** Reads and validates the environment; a bad value stops the start with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`DATABASE_URL=`) means unset, as shells and .env files write it.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  const c = parsed.data;
  return { ...c, baseUrl: c.PUBLIC_BASE_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}` };
}
