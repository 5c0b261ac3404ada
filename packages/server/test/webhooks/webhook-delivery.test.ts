import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '@svc/webhook-verify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_DEFAULTS } from '../../src/modules/webhooks/webhook-worker-deps';
import { bearer, useTestServer, type TestServer } from '../harness';
import { Receiver } from './receiver';
import { attemptsOf, createEndpoint, deliveriesSettled, emit, eventually, startWorker, type RunningWorker } from './webhook-helpers';

const t = useTestServer();
let w: RunningWorker;
const receivers: Receiver[] = [];
const stripe = new Stripe('sk_test_unused');

beforeAll(async () => {
  // The receiver listens on loopback; these tests read its bodies back as if it were a public address.
  w = await startWorker(t, { timeoutMs: 1_000, logsBodyFrom: () => true });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await w.stop();
});

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

async function setup(enabledEvents = ['*']) {
  const { tenant, keys } = await t.tenant();
  const r = await receiver();
  const endpoint = await createEndpoint(t, keys.test.secret, { url: r.url(), enabled_events: enabledEvents });
  return { tenant, key: keys.test.secret, r, endpoint, scope: { tenantId: tenant.id, livemode: false } };
}

const sendTest = (key: string, id: string, headers: Record<string, string> = {}) =>
  t.http().post(`/v1/webhook_endpoints/${id}/test`).set(bearer(key)).set(headers);

describe('delivery', () => {
  it('POSTs the envelope signed so webhook-verify, Stripe and Standard Webhooks verifiers accept it', async () => {
    const { key, r, endpoint } = await setup(['access.*']);
    const res = await sendTest(key, endpoint.id, { 'Idempotency-Key': 'test-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const event = res.body.data;
    expect(event).toMatchObject({
      object: 'event',
      type: 'platform.webhook_endpoint.tested',
      subject: endpoint.id,
      livemode: false,
      request: { id: res.headers['request-id'], idempotency_key: 'test-1' },
    });
    expect(event.data.object).toMatchObject({ id: endpoint.id, object: 'webhook_endpoint' });
    expect(event.data.object.secret).toBeUndefined();

    const [got] = await r.waitFor(1);
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'svc-event-id': event.id,
      'svc-event-type': 'platform.webhook_endpoint.tested',
      'webhook-id': event.id,
    });
    expect(JSON.parse(got!.body)).toEqual(event);
    expect(got!.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(verifyWebhook(got!.body, got!.headers['svc-signature'] as string, endpoint.secret)).resolves.toEqual(event);
    expect(stripe.webhooks.constructEvent(got!.body, got!.headers['svc-signature'] as string, endpoint.secret)).toMatchObject({ id: event.id });
    expect(() => stripe.webhooks.constructEvent(got!.body, got!.headers['svc-signature'] as string, 'whsec_other')).toThrow();
    expect(new Webhook(endpoint.secret).verify(got!.body, got!.headers as Record<string, string>)).toEqual(event);

    const attempts = await eventually(async () => {
      const a = await attemptsOf(t, key, endpoint.id);
      expect(a).toHaveLength(1);
      return a;
    });
    expect(attempts[0]).toMatchObject({
      object: 'webhook_attempt',
      webhook_endpoint: endpoint.id,
      event: event.id,
      attempt: 1,
      status_code: 200,
      succeeded: true,
      response_body: 'ok',
      error: null,
      next_attempt_at: null,
    });
    expect(attempts[0]!.latency_ms).toBeGreaterThanOrEqual(0);
    const stored = await t.http().get(`/v1/events/${event.id}`).set(bearer(key));
    expect(stored.body.data).toEqual(event);
  });

  it('delivers by enabled_events: exact types, * and wildcards; test events to test endpoints only', async () => {
    const { tenant, keys } = await t.tenant();
    const r = await receiver();
    const filters = ['*', 'streams.*', 'streams.live_stream.*', 'streams.live_stream.created', 'streams.asset.*', 'access.*', 'streams.live_stream.deleted'];
    for (const [i, f] of filters.entries()) await createEndpoint(t, keys.test.secret, { url: r.url(`/${i}`), enabled_events: [f] });
    const [event] = await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.live_stream.created');
    await r.waitFor(4);
    await deliveriesSettled(t);
    expect(r.received.map((x) => x.headers['svc-event-id'])).toEqual(Array(4).fill(event!.id));
    expect(r.received.length).toBe(4);
    const paths = await t.ctx.db.selectFrom('webhook_deliveries').innerJoin('webhook_endpoints as e', 'e.id', 'endpoint_id').select('e.url').where('event_id', '=', event!.id).execute();
    expect(paths.map((p) => new URL(p.url).pathname).sort()).toEqual(['/0', '/1', '/2', '/3']);
    // A live event reaches no test endpoint.
    await emit(t, { tenantId: tenant.id, livemode: true }, 'streams.live_stream.created');
    await deliveriesSettled(t);
    expect(r.received.length).toBe(4);
  });

  it('retries a 500 on the schedule (1 minute later by the delivery clock), then succeeds', async () => {
    const { key, r, endpoint } = await setup();
    r.answer((_req, n) => (n === 1 ? { status: 500, body: 'boom' } : { status: 204 }));
    const event = (await sendTest(key, endpoint.id)).body.data;
    await r.waitFor(1);
    const [first] = await eventually(async () => {
      const a = await attemptsOf(t, key, endpoint.id);
      expect(a).toHaveLength(1);
      return a;
    });
    expect(first).toMatchObject({ attempt: 1, status_code: 500, succeeded: false, response_body: 'boom', error: 'http_500' });
    expect(Date.parse(first!.next_attempt_at as string) - Date.parse(first!.created_at as string)).toBe(60_000);
    await deliveriesSettled(t);
    expect(r.received).toHaveLength(1);
    w.clock.advance(61_000);
    await r.waitFor(2);
    expect(r.received[1]!.headers['svc-event-id']).toBe(event.id);
    const attempts = await eventually(async () => {
      const a = await attemptsOf(t, key, endpoint.id);
      expect(a).toHaveLength(2);
      return a;
    });
    expect(attempts[0]).toMatchObject({ attempt: 2, status_code: 204, succeeded: true, next_attempt_at: null });
    const ok = await t.http().get(`/v1/events?delivery_success=true&subject=${endpoint.id}`).set(bearer(key));
    expect(ok.body.data.map((e: { id: string }) => e.id)).toEqual([event.id]);
  });

  it('disables the endpoint at once on 410 Gone, emits platform.webhook_endpoint.disabled and records an email', async () => {
    const { tenant, key, r, endpoint, scope } = await setup();
    const watcher = await receiver();
    await createEndpoint(t, key, { url: watcher.url(), enabled_events: ['platform.webhook_endpoint.disabled'] });
    r.answer(() => ({ status: 410 }));
    await emit(t, scope, 'streams.asset.ready');
    const [note] = await watcher.waitFor(1);
    const disabledEvent = JSON.parse(note!.body);
    expect(disabledEvent).toMatchObject({
      type: 'platform.webhook_endpoint.disabled',
      subject: endpoint.id,
      request: null,
      data: { object: { id: endpoint.id, status: 'disabled', disabled_reason: 'gone' }, previous_attributes: { status: 'enabled' } },
    });
    const fetched = await t.http().get(`/v1/webhook_endpoints/${endpoint.id}`).set(bearer(key));
    expect(fetched.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    const emails = await t.ctx.db.selectFrom('email_outbox').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ recipients: 'tenant_owners', template: 'webhook_endpoint_disabled', livemode: false, sent_at: null });
    expect(emails[0]!.body).toContain('410 Gone');
    // Nothing more goes to a disabled endpoint, and it cannot be tested or replayed until re-enabled.
    await emit(t, scope, 'streams.asset.ready');
    await deliveriesSettled(t);
    expect(r.received).toHaveLength(1);
    expect((await sendTest(key, endpoint.id)).body.error.code).toBe('webhook_endpoint_disabled');
    const replay = await t.http().post(`/v1/webhook_endpoints/${endpoint.id}/replay`).set(bearer(key)).send({ event_ids: [disabledEvent.id] });
    expect(replay.status).toBe(409);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const { key, r, endpoint } = await setup();
    r.answer(() => ({ status: 302, headers: { location: r.url('/elsewhere') } }));
    await sendTest(key, endpoint.id);
    await r.waitFor(1);
    const [a] = await eventually(async () => {
      const list = await attemptsOf(t, key, endpoint.id);
      expect(list).toHaveLength(1);
      return list;
    });
    expect(a).toMatchObject({ status_code: 302, succeeded: false, error: 'redirect_not_followed' });
    expect(a!.next_attempt_at).not.toBeNull();
    await deliveriesSettled(t);
    expect(r.received.map((x) => x.path)).toEqual(['/hook']);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    expect(DELIVERY_DEFAULTS.timeoutMs).toBe(10_000);
    const { key, r, endpoint } = await setup();
    r.answer(() => ({ status: 200, delayMs: 2_500 }));
    await sendTest(key, endpoint.id);
    const [a] = await eventually(async () => {
      const list = await attemptsOf(t, key, endpoint.id);
      expect(list).toHaveLength(1);
      return list;
    });
    expect(a).toMatchObject({ status_code: null, succeeded: false, error: 'timeout', response_body: null });
    expect(a!.latency_ms as number).toBeGreaterThanOrEqual(950);
    expect(a!.latency_ms as number).toBeLessThan(2_000);
  });

  it('keeps at most 10 deliveries in flight per endpoint', async () => {
    const { key, r, endpoint, scope } = await setup(['streams.asset.created']);
    r.answer(() => ({ status: 200, delayMs: 600 }));
    await emit(t, scope, 'streams.asset.created', 25);
    await r.waitFor(25, 20_000);
    expect(r.maxInFlight).toBeLessThanOrEqual(10);
    expect(r.maxInFlight).toBeGreaterThanOrEqual(8);
    const attempts = await eventually(async () => {
      const list = await attemptsOf(t, key, endpoint.id);
      expect(list).toHaveLength(25);
      return list;
    });
    expect(attempts.every((a) => a.succeeded)).toBe(true);
  });

  it('signs with both secrets during a roll\'s grace period', async () => {
    const { key, r, endpoint } = await setup();
    const rolled = (await t.http().post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`).set(bearer(key)).send({ expires_in_seconds: 3600 })).body.data;
    await sendTest(key, endpoint.id);
    const [got] = await r.waitFor(1);
    const header = got!.headers['svc-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [rolled.secret, endpoint.secret]) {
      await expect(verifyWebhook(got!.body, header, secret)).resolves.toMatchObject({ subject: endpoint.id });
      expect(stripe.webhooks.constructEvent(got!.body, header, secret)).toMatchObject({ subject: endpoint.id });
      expect(new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).toMatchObject({ subject: endpoint.id });
    }
    await t.http().post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`).set(bearer(key)).send({ expires_in_seconds: 0 });
    await sendTest(key, endpoint.id);
    const [, second] = await r.waitFor(2);
    expect(second!.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(verifyWebhook(second!.body, second!.headers['svc-signature'] as string, endpoint.secret)).rejects.toMatchObject({ reason: 'no_matching_signature' });
  });

  it('emits nothing when the transaction rolls back, even with a worker running', async () => {
    const { r, scope } = await setup();
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        const { emitEvent } = await import('../../src/core/events/emit-event');
        await emitEvent(trx, scope, { type: 'streams.asset.ready', subject: 'ast_1', object: { id: 'ast_1', object: 'asset' } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await deliveriesSettled(t);
    expect(r.received).toHaveLength(0);
  });
});
