import { sql } from 'kysely';
import type { Executor } from '../../../db/database';
import type { MessageRow } from '../../../db/messaging.schema';
import { ChannelFailure, transientFailure, type MessageChannel, type OutgoingMessage, type SendReceipt } from '../channels/message-channel';
import { magicFailure } from '../outbox/magic-recipients';
import { takeSendSlot } from '../outbox/send-cap';
import { moveMessage } from './message-transitions';
import type { MessagingDeps } from './messaging-deps';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule';
import { literal } from '../../../db/literal';

type Claim = { row: MessageRow; adapter: MessageChannel } | null;

/**
 * A live code or link is kept only while it may still go out: once its message is settled (sent, failed,
 * cancelled) the stored body and parameters are dropped too, not only hidden from reads.
 */
const settled = (row: Pick<MessageRow, 'sensitive'>) => (row.sensitive ? { body: '[redacted]', params: '{}' } : {});

/**
 * Takes a queued message for one attempt, in one transaction: a code past its expiry is `cancelled`, a channel
 * without a provider fails it, a first attempt past the tenant's hourly cap fails it; otherwise it becomes
 * `sending` under a lease. Only one worker can take it: the move is conditional on `queued`.
 */
async function claim(deps: MessagingDeps, id: string): Promise<Claim> {
  const now = deps.clock();
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .where('job_queued_at', 'is not', null)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!row) return null;
    const fail = (error_code: string) =>
      moveMessage(trx, id, ['queued'], { status: 'failed', error_code, failed_at: now, job_queued_at: null, next_attempt_at: null, ...settled(row) });
    if (row.expires_at && row.expires_at <= now) {
      await moveMessage(trx, id, ['queued'], { status: 'cancelled', error_code: 'expired', job_queued_at: null, next_attempt_at: null, ...settled(row) });
      return null;
    }
    const adapter = deps.channels.of(row.channel);
    if (!adapter) {
      await fail('channel_not_configured');
      return null;
    }
    if (row.attempts === 0 && !(await takeSendSlot(trx, row.tenant_id, now, deps.cap))) {
      await fail('send_cap_exceeded');
      return null;
    }
    const taken = await moveMessage(trx, id, ['queued'], {
      status: 'sending',
      attempts: row.attempts + 1,
      lease_until: new Date(now.getTime() + deps.leaseMs),
      job_queued_at: null,
      provider: adapter.provider,
    });
    return taken ? { row: taken, adapter } : null;
  });
}

/** Records an attempt's outcome, if the message is still in this attempt (a crashed attempt's late answer changes nothing). */
async function record(deps: MessagingDeps, row: MessageRow, outcome: SendReceipt | ChannelFailure): Promise<void> {
  const now = deps.clock();
  const attempt = { attempts: row.attempts };
  await deps.db.transaction().execute(async (trx) => {
    if (!(outcome instanceof ChannelFailure)) {
      await moveMessage(trx, row.id, ['sending'], { status: 'sent', provider_id: outcome.providerId, sent_at: now, lease_until: null, error_code: null, ...settled(row) }, attempt);
      return;
    }
    const retryAt = outcome.permanent || row.attempts >= MAX_ATTEMPTS ? null : nextAttemptAt(row.attempts, now);
    if (retryAt && row.expires_at && retryAt >= row.expires_at) {
      // The code would be stale by the retry: it is never sent late.
      await moveMessage(trx, row.id, ['sending'], { status: 'cancelled', error_code: 'expired', lease_until: null, ...settled(row) }, attempt);
    } else if (retryAt) {
      await moveMessage(trx, row.id, ['sending'], { status: 'queued', error_code: outcome.code, next_attempt_at: retryAt, lease_until: null }, attempt);
    } else {
      await moveMessage(trx, row.id, ['sending'], { status: 'failed', error_code: outcome.code, failed_at: now, lease_until: null, ...settled(row) }, attempt);
    }
  });
  // The detail names the provider's answer, never the body.
  if (outcome instanceof ChannelFailure) {
    deps.log.warn({ message: row.id, provider: row.provider, attempt: row.attempts, error_code: outcome.code, detail: outcome.detail }, 'message attempt failed');
  }
}

/** Test mode: a magic recipient's captured message fails as a live one would (a bounce after it was taken). */
async function playMagicRecipient(deps: MessagingDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('messages').selectAll().where('id', '=', id).where('livemode', '=', false).executeTakeFirst();
    const magic = row && magicFailure(row.channel, row.to);
    if (!row || !magic) return;
    await moveMessage(trx, id, ['captured'], { status: 'failed', error_code: magic.errorCode, failed_at: deps.clock() });
  });
}

/** One attempt of each message. Safe to run twice, and for a message no longer queued it does nothing. */
export async function deliverMessage(deps: MessagingDeps, id: string): Promise<void> {
  const live = await deps.db.selectFrom('messages').select('livemode').where('id', '=', id).executeTakeFirst();
  if (!live) return;
  if (!live.livemode) return playMagicRecipient(deps, id);
  const claimed = await claim(deps, id);
  if (!claimed) return;
  const { row, adapter } = claimed;
  const params = row.params ?? {};
  let outcome: SendReceipt | ChannelFailure;
  try {
    outcome = await adapter.send({ id: row.id, channel: row.channel, to: row.to, template: row.template, subject: row.subject, body: row.body, params, brand: row.brand as OutgoingMessage['brand'] }, row.id);
  } catch (err) {
    outcome = err instanceof ChannelFailure ? err : transientFailure(err);
  }
  await record(deps, row, outcome);
}

/** Open work the scheduler hands to jobs: retries whose time came, jobs lost, attempts cut short by a crash. */
export async function queueDueMessages(db: Executor, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .updateTable('messages')
    .set({ status: 'queued', job_queued_at: sql<Date>`now()`, lease_until: null })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('messages')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('status', '=', literal('queued')), w('job_queued_at', 'is', null), w('next_attempt_at', '<=', now)]),
            w.and([w('status', '=', literal('queued')), w('job_queued_at', '<', sql<Date>`now() - interval '10 minutes'`)]),
            w.and([w('status', '=', literal('sending')), w('lease_until', '<', now)]),
          ]),
        )
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
