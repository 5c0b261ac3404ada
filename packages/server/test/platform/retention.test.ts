import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config';
import { definedJobTypes } from '../../src/jobs/job-definition';
import { purgeIdempotencyKeys } from '../../src/jobs/purge-idempotency-keys.job';
import { purgeMessageBodies } from '../../src/modules/messaging/outbox/purge-message-bodies.job';
import { purgePaymentNotifications } from '../../src/modules/payments/retention/purge-payment-notifications.job';
import { purgeProviderNotices } from '../../src/modules/streams/provider-webhooks/purge-provider-notices.job';
import { purgePageViews } from '../../src/modules/ticketing/public/purge-page-views.job';
import { useTestServer } from '../harness';

/** Every table that grows with use has a job that keeps it to the operator's setting. */

const t = useTestServer();
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

/** Rows as the product writes them, their references left out: only their age matters here. */
async function seed(rows: (trx: typeof t.ctx.db) => Promise<unknown>) {
  await t.ctx.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await rows(trx as unknown as typeof t.ctx.db);
  });
}

describe('retention', () => {
  it('each retention job is defined, scheduled, and has a documented setting with its default', () => {
    const scheduled = definedJobTypes().filter((j) => j.schedule).map((j) => j.name);
    expect(scheduled).toEqual(
      expect.arrayContaining(['purge-idempotency-keys', 'streams-purge-provider-notices', 'payments-purge-notifications', 'ticketing-purge-page-views', 'messaging-purge-message-bodies', 'purge-events']),
    );
    const config = loadConfig({});
    expect(config).toMatchObject({
      SVC_RETAIN_IDEMPOTENCY_HOURS: 24,
      SVC_RETAIN_PROVIDER_NOTIFICATIONS_DAYS: 30,
      SVC_RETAIN_PAGE_VIEWS_DAYS: 7,
      SVC_RETAIN_MESSAGE_BODIES_DAYS: 30,
    });
    // Fewer than the API's 24 hours would break its promise to answer a retry the same.
    expect(() => loadConfig({ SVC_RETAIN_IDEMPOTENCY_HOURS: '2' })).toThrow(/SVC_RETAIN_IDEMPOTENCY_HOURS/);
  });

  it('provider notifications: older than the setting go, newer stay', async () => {
    const config = `pc_${randomUUID()}`;
    await seed((db) =>
      db.insertInto('provider_notifications').values([
        { provider_config_id: config, notification_id: 'old', kind: 'k', subject: null, received_at: daysAgo(31) },
        { provider_config_id: config, notification_id: 'new', kind: 'k', subject: null, received_at: daysAgo(29) },
      ]).execute(),
    );
    expect(await purgeProviderNotices(t.ctx.db, 30)).toBe(1);
    const left = await t.ctx.db.selectFrom('provider_notifications').select('notification_id').where('provider_config_id', '=', config).execute();
    expect(left.map((r) => r.notification_id)).toEqual(['new']);
  });

  it('payment notifications: applied ones older than the setting go with old callback tokens; unapplied ones stay', async () => {
    const { tenant } = await t.tenant();
    const config = `ppc_${randomUUID().replaceAll('-', '')}`;
    const notice = (id: string, at: Date, applied: boolean) => ({
      provider_config_id: config, tenant_id: tenant.id, livemode: true, provider_event_id: id, kind: 'payment', reference: null, hint: null, provider_receipt: null,
      received_at: at, applied_at: applied ? at : null,
    });
    await seed(async (db) => {
      await db.insertInto('payment_notifications').values([notice('old', daysAgo(31), true), notice('new', daysAgo(29), true), notice('waiting', daysAgo(40), false)]).execute();
      await db.insertInto('payment_callback_tokens').values([
        { token_hash: `old-${config}`, provider_config_id: config, subject_id: 'pay_old', created_at: daysAgo(31) },
        { token_hash: `new-${config}`, provider_config_id: config, subject_id: 'pay_new', created_at: daysAgo(1) },
      ]).execute();
    });
    expect(await purgePaymentNotifications(t.ctx.db, 30)).toBe(2);
    const left = await t.ctx.db.selectFrom('payment_notifications').select('provider_event_id').where('provider_config_id', '=', config).orderBy('provider_event_id').execute();
    expect(left.map((r) => r.provider_event_id)).toEqual(['new', 'waiting']);
    const tokens = await t.ctx.db.selectFrom('payment_callback_tokens').select('subject_id').where('provider_config_id', '=', config).execute();
    expect(tokens.map((r) => r.subject_id)).toEqual(['pay_new']);
  });

  it('page views: raw views older than the setting and day marks before yesterday go', async () => {
    const { tenant } = await t.tenant();
    const event = randomUUID();
    const view = (hash: string, at: Date) => ({ tenant_id: tenant.id, livemode: false, organization_id: 'org_x', event_id: event, visitor_hash: hash, viewed_at: at, source: null });
    await seed(async (db) => {
      await db.insertInto('event_page_views').values([view('old', daysAgo(8)), view('new', daysAgo(6))]).execute();
      await sql`insert into event_day_visitors (event_id, day, visitor_hash) values (${event}, current_date - 3, 'old'), (${event}, current_date - 1, 'new')`.execute(db);
    });
    expect(await purgePageViews(t.ctx.db, 7)).toBe(2);
    expect((await t.ctx.db.selectFrom('event_page_views').select('visitor_hash').where('event_id', '=', event).execute()).map((r) => r.visitor_hash)).toEqual(['new']);
    const marks = await sql<{ visitor_hash: string }>`select visitor_hash from event_day_visitors where event_id = ${event}`.execute(t.ctx.db);
    expect(marks.rows.map((r) => r.visitor_hash)).toEqual(['new']);
  });

  it('message bodies: the text of finished messages older than the setting is emptied, the records stay', async () => {
    const { tenant } = await t.tenant();
    const message = (id: string, status: 'sent' | 'queued', at: Date) => ({
      id, tenant_id: tenant.id, livemode: false, channel: 'email' as const, to: 'a@example.test', template: 't', subject: 's', body: 'your code is 123456', status, related: [], created_at: at,
    });
    await seed(async (db) => {
      await db.insertInto('messages').values([message('msg_old', 'sent', daysAgo(31)), message('msg_new', 'sent', daysAgo(2)), message('msg_waiting', 'queued', daysAgo(31))]).execute();
      await db.insertInto('email_outbox').values({ id: 'eo_old', tenant_id: tenant.id, livemode: false, recipients: 'tenant_owners', template: 't', subject: 's', body: 'hello', data: '{}', created_at: daysAgo(40), sent_at: daysAgo(40) }).execute();
    });
    expect(await purgeMessageBodies(t.ctx.db, 30)).toBe(2);
    const bodies = await t.ctx.db.selectFrom('messages').select(['id', 'body', 'status']).where('tenant_id', '=', tenant.id).orderBy('id').execute();
    expect(bodies).toEqual([
      { id: 'msg_new', body: 'your code is 123456', status: 'sent' },
      { id: 'msg_old', body: '', status: 'sent' },
      // Not finished: it may still be sent.
      { id: 'msg_waiting', body: 'your code is 123456', status: 'queued' },
    ]);
    expect((await t.ctx.db.selectFrom('email_outbox').select('body').where('id', '=', 'eo_old').executeTakeFirstOrThrow()).body).toBe('');
  });

  it('idempotency records: kept for the setting, never fewer than 24 hours', async () => {
    const { tenant } = await t.tenant();
    const row = (key: string, hoursAgo: number) => ({
      tenant_id: tenant.id, livemode: false, key, method: 'POST', path: '/v1/keys', request_hash: 'h', response_status: 201, response_body: '{}',
      locked_until: new Date(), created_at: new Date(Date.now() - hoursAgo * 3_600_000),
    });
    await seed((db) => db.insertInto('idempotency_keys').values([row(`a-${randomUUID()}`, 50), row(`b-${randomUUID()}`, 30)]).execute());
    // 48 hours: the 50-hour-old one goes, the 30-hour-old one stays, though past the API's 24.
    expect(await purgeIdempotencyKeys(t.ctx.db, 48)).toBe(1);
    expect(await purgeIdempotencyKeys(t.ctx.db, 24)).toBe(1);
  });
});
