import pg from 'pg';
import type { Logger } from 'pino';
import { pgConnection } from '../db/session-target';

export type Notification = { channel: string; payload: string };

/**
 * One LISTEN connection per process, shared by every cache that must hear about changes made by any
 * process on the same database. After a lost connection it reconnects and tells subscribers to drop
 * everything, since notifications sent meanwhile are gone.
 */
export class NotificationListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly resetHandlers = new Set<() => void>();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /**
   * Calls `handler` with each notification on `channel`. Channels named before `start` are listened to
   * from the first moment; one added later from a moment after this call (fine for wake-ups, not for caches).
   */
  on(channel: string, handler: (payload: string) => void): void {
    if (!this.handlers.has(channel)) {
      this.handlers.set(channel, new Set());
      this.client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`).catch((err: Error) => {
        this.log.warn({ err: err.message, channel }, 'could not listen');
      });
    }
    this.handlers.get(channel)!.add(handler);
  }

  /** Called after a reconnect: anything cached may have missed an invalidation. */
  onReset(handler: () => void): void {
    this.resetHandlers.add(handler);
  }

  async start(): Promise<void> {
    const { Client, connectionString } = pgConnection(this.connectionString);
    const client = new Client({ connectionString });
    client.on('notification', (n) => {
      for (const h of this.handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'notification listener lost its connection');
      this.scheduleReconnect();
    });
    client.on('end', () => this.scheduleReconnect());
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    this.client = null;
    for (const h of this.resetHandlers) h();
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      try {
        await this.start();
        for (const h of this.resetHandlers) h();
      } catch {
        this.scheduleReconnect();
      }
    }, 1000);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.client?.end().catch(() => {});
  }
}
