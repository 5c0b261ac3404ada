/** A scan taken while the phone had no network, waiting for the sync endpoint. */
export interface QueuedScan {
  /** Sent as the scan's `nonce`: a scan synced twice is answered once. */
  nonce: string;
  event: string;
  secret: string;
  type: 'entry' | 'exit';
  scanned_at: string;
}

/** Where the queue is kept: IndexedDB in the browser (idb-keyval), a map in tests. */
export interface QueueStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export interface SyncResult {
  scan: QueuedScan;
  status: 'ok' | 'error';
  reason: string | null;
}

const KEY = 'svc.door.queue';
/** The sync endpoint takes at most this many scans a call. */
export const SYNC_BATCH = 100;

/**
 * Offline scans, kept across reloads, sent in order through `POST /v1/organizer/events/:event/checkins/sync` when
 * the network is back. A batch leaves the queue only once the API answered it; a failed call keeps it for the next try.
 */
export class DoorQueue {
  private chain: Promise<unknown> = Promise.resolve();
  constructor(private readonly storage: QueueStorage) {}

  async all(): Promise<QueuedScan[]> {
    const kept = await this.storage.get(KEY);
    return Array.isArray(kept) ? (kept as QueuedScan[]) : [];
  }

  add(scan: QueuedScan): Promise<number> {
    return this.locked(async () => {
      const scans = [...(await this.all()), scan];
      await this.storage.set(KEY, scans);
      return scans.length;
    });
  }

  /** Sends every queued scan, one event and batch at a time; answers each scan's result. */
  sync(send: (event: string, scans: QueuedScan[]) => Promise<Array<{ status: 'ok' | 'error'; reason: string | null }>>): Promise<SyncResult[]> {
    return this.locked(async () => {
      const results: SyncResult[] = [];
      for (;;) {
        const scans = await this.all();
        if (scans.length === 0) return results;
        const event = scans[0]!.event;
        const batch = scans.filter((s) => s.event === event).slice(0, SYNC_BATCH);
        const answers = await send(event, batch);
        batch.forEach((scan, i) => results.push({ scan, status: answers[i]?.status ?? 'error', reason: answers[i]?.reason ?? null }));
        const sent = new Set(batch.map((s) => s.nonce));
        await this.storage.set(KEY, (await this.all()).filter((s) => !sent.has(s.nonce)));
      }
    });
  }

  /** One change at a time: a scan added during a sync is neither lost nor sent twice. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** What a ticket's QR code holds: its secret, alone or as the last part of a link. */
export function secretOfCode(text: string): string {
  const trimmed = text.trim();
  try {
    const url = new URL(trimmed);
    return url.searchParams.get('secret') ?? url.pathname.split('/').filter(Boolean).at(-1) ?? trimmed;
  } catch {
    return trimmed;
  }
}

/** The door's words for the API's refusal reasons (`CHECKIN_REASONS`). */
export function refusalText(reason: string | null): string {
  const words: Record<string, string> = {
    invalid: 'Unknown ticket: not one of this event.',
    unpaid: 'Not paid: the order is still pending.',
    cancelled: 'Void ticket: refunded or cancelled.',
    unapproved: 'Awaiting the organizer\'s approval.',
    already_redeemed: 'Already used: this ticket was scanned in.',
    invalid_time: 'Outside the entry window.',
  };
  return reason ? (words[reason] ?? reason.replace(/_/g, ' ')) : 'Refused.';
}
