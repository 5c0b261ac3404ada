import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@svc/contract';
import { sql } from 'kysely';
import { emitEvent } from '../../src/core/events/emit-event';
import type { Scope } from '../../src/core/scope';
import { useTestServer, type TestServer } from '../harness';
import { insertEndpointRow } from './event-fixtures';

const t = useTestServer();

const streamObject = (id: string) => ({
  id,
  object: 'live_stream',
  status: 'idle',
  ingest: { rtmp_url: 'rtmps://ingest.example/app', stream_key: 'live-key-secret', srt_passphrase: 'srt-secret' },
  metadata: {},
});

/** Queued job ids of the deliver-webhook queue, with the deliveries each attempts. */
const jobDeliveries = sql`select j.id, d.id as delivery_id from pgboss.job j, jsonb_array_elements_text(j.data->'deliveryIds') as d(id) where j.name = 'deliver-webhook'`;

/** How many of the deliveries a queued job will attempt. */
async function jobsFor(deliveryIds: string[]): Promise<number> {
  if (deliveryIds.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`select count(distinct delivery_id)::int as n from (${jobDeliveries}) q where delivery_id in (${sql.join(deliveryIds)})`.execute(t.ctx.db);
  return rows[0]!.n;
}

async function scopeOf(): Promise<Scope> {
  const { tenant } = await t.tenant();
  return { tenantId: tenant.id, livemode: false };
}

describe('emitEvent', () => {
  it('writes the envelope of the spec, without secrets, and queues a delivery per matching endpoint', async () => {
    const scope = await scopeOf();
    const all = await insertEndpointRow(t, scope, ['*']);
    const streams = await insertEndpointRow(t, scope, ['streams.live_stream.*']);
    await insertEndpointRow(t, scope, ['access.*']);
    await insertEndpointRow(t, { ...scope, livemode: true }, ['*']);
    const envelope = await t.ctx.db.transaction().execute((trx) =>
      emitEvent(trx, scope, {
        type: 'streams.live_stream.updated',
        subject: 'ls_abc',
        object: streamObject('ls_abc'),
        previousAttributes: { ingest: { stream_key: 'old-secret' }, status: 'connecting' },
      }),
    );
    expect(envelope).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      type: 'streams.live_stream.updated',
      api_version: '2026-11-01',
      created_at: expect.any(String),
      livemode: false,
      tenant: scope.tenantId,
      subject: 'ls_abc',
      data: {
        object: { id: 'ls_abc', object: 'live_stream', status: 'idle', ingest: { rtmp_url: 'rtmps://ingest.example/app' }, metadata: {} },
        previous_attributes: { ingest: {}, status: 'connecting' },
      },
      request: null,
    });
    const row = await t.ctx.db.selectFrom('event_log').selectAll().where('id', '=', envelope.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.envelope)).toEqual(envelope);
    expect(row.envelope).not.toMatch(/secret/);
    const deliveries = await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', envelope.id).execute();
    expect(deliveries.map((d) => d.endpoint_id).sort()).toEqual([all, streams].sort());
    expect(deliveries.every((d) => d.state === 'queued' && d.kind === 'event')).toBe(true);
    expect(await jobsFor(deliveries.map((d) => d.id))).toBe(2);
  });

  it('emits nothing when the transaction rolls back: no event, no delivery, no job', async () => {
    const scope = await scopeOf();
    await insertEndpointRow(t, scope, ['*']);
    let id = '';
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        id = (await emitEvent(trx, scope, { type: 'streams.live_stream.created', subject: 'ls_x', object: streamObject('ls_x') })).id;
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(id).toMatch(/^evt_/);
    expect(await t.ctx.db.selectFrom('event_log').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', id).execute()).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from (${jobDeliveries}) q where delivery_id not in (select id from webhook_deliveries)`.execute(t.ctx.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('no event of any declared type can carry a secret, in its object or its previous attributes', async () => {
    const scope = await scopeOf();
    await insertEndpointRow(t, scope, ['*']);
    const SECRET = 'leak-canary-7f3a';
    const secretsOf = (object: string) => ({
      object,
      stream_key: SECRET,
      ingest: { stream_key: SECRET, srt_passphrase: SECRET },
      simulcast_targets: [{ url: 'rtmp://a', stream_key: SECRET }],
      // An upload's `url` is its secret; other objects' `url` fields are not.
      ...(object === 'upload' ? { url: `https://upload.example/${SECRET}` } : {}),
      secret: SECRET,
      private_key: SECRET,
      api_token: SECRET,
    });
    const kinds = ['live_stream', 'upload', 'api_key', 'webhook_endpoint', 'customer_token_key', 'signing_key', 'provider_configuration'];
    const ids = await t.ctx.db.transaction().execute(async (trx) => {
      const out: string[] = [];
      for (const type of EVENT_TYPES) {
        for (const kind of kinds) {
          const { object: _o, ...previous } = secretsOf(kind);
          const e = await emitEvent(trx, scope, {
            type,
            subject: 'x_1',
            object: { id: 'x_1', ...secretsOf(kind), expanded: [secretsOf('upload'), secretsOf('api_key')] },
            previousAttributes: previous,
          });
          out.push(e.id);
        }
      }
      return out;
    });
    const rows = await t.ctx.db.selectFrom('event_log').select('envelope').where('id', 'in', ids).execute();
    expect(rows).toHaveLength(EVENT_TYPES.length * kinds.length);
    for (const row of rows) expect(row.envelope).not.toContain(SECRET);
  });

  it('refuses a type the contract does not declare', async () => {
    const scope = await scopeOf();
    await expect(
      t.ctx.db.transaction().execute((trx) =>
        emitEvent(trx, scope, { type: 'streams.nothing.happened' as never, subject: 'x', object: { id: 'x', object: 'x' } }),
      ),
    ).rejects.toThrow(/not declared/);
  });
});
