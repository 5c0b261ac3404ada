import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { runServerProcess, type ServerProcess } from '../process';
import { attendeesOfOrder, secretOf } from './attendees-fixtures';
import { sk, type Tenant } from './booking-fixtures';
import { paidBooking } from './payments-fixtures';

/**
 * The door may be served by another process than the one an organizer refunds through: a ticket refunded
 * through the in-test app (process A) must be refused at once by a second, real server process (B) on the same
 * database, although B admitted the same ticket a moment before.
 */

let a: TestServer;
let b: ServerProcess;
let bUrl: string;
let dataDir: string;

beforeAll(async () => {
  a = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
  dataDir = mkdtempSync(join(tmpdir(), 'svc-door-second-'));
  b = runServerProcess({
    DATABASE_URL: a.databaseUrl,
    SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
    SVC_DATA_DIR: dataDir,
    SVC_RATE_LIMIT_PUBLIC: '10000',
  });
  bUrl = await b.url;
}, 60_000);

afterAll(async () => {
  if (b && b.child.exitCode === null) {
    b.child.kill('SIGTERM');
    await b.exited;
  }
  await a?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A scan at process B's door. */
async function scanAtB(tenant: Tenant, event: string, body: Record<string, unknown>) {
  const res = await fetch(`${bUrl}/v1/organizer/events/${event}/checkins`, {
    method: 'POST',
    headers: { ...sk(tenant), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { status: string; reason: string | null } }).data;
}

describe('check-in across processes', () => {
  it('refuses at one process a ticket refunded through another', async () => {
    const tenant = await a.tenant();
    const paid = await paidBooking(a, tenant, { starts_at: new Date(Date.now() - 3600_000), ends_at: new Date(Date.now() + 3600_000) });
    const [ticket] = await attendeesOfOrder(a, paid.booking.id);
    const secret = await secretOf(a, ticket!.id);

    // B admits the ticket, then lets its holder out again.
    expect(await scanAtB(tenant, paid.event.slug, { secret, type: 'entry' })).toMatchObject({ status: 'ok', reason: null });
    expect(await scanAtB(tenant, paid.event.slug, { secret, type: 'exit' })).toMatchObject({ status: 'ok' });

    // A refunds the whole order; B's next entry scan of the ticket is refused.
    expectStatus(await a.http().post(`/v1/orders/${paid.booking.id}/refunds`).set(sk(tenant)).set('Idempotency-Key', 'door-refund').send({}), 201);
    expect(await scanAtB(tenant, paid.event.slug, { secret, type: 'entry' })).toMatchObject({ status: 'error', reason: 'cancelled' });
    expect(await scanAtB(tenant, paid.event.slug, { secret, type: 'entry', force: true })).toMatchObject({ status: 'error', reason: 'cancelled' });
  });

  it('admits a ticket scanned at once on both processes exactly once', async () => {
    const tenant = await a.tenant();
    const paid = await paidBooking(a, tenant, { starts_at: new Date(Date.now() - 3600_000), ends_at: new Date(Date.now() + 3600_000) });
    const [ticket] = await attendeesOfOrder(a, paid.booking.id);
    const secret = await secretOf(a, ticket!.id);
    const body = { secret, type: 'entry' };
    const atA = async () => expectStatus(await a.http().post(`/v1/organizer/events/${paid.event.slug}/checkins`).set(sk(tenant)).send(body), 200).data;
    const answers = await Promise.all([atA(), scanAtB(tenant, paid.event.slug, body), atA(), scanAtB(tenant, paid.event.slug, body)]);
    expect(answers.map((d) => d.reason).sort()).toEqual(['already_redeemed', 'already_redeemed', 'already_redeemed', null]);
    const entries = await a.ctx.db.selectFrom('checkins').select('id').where('ticket_id', '=', ticket!.id).where('status', '=', 'ok').execute();
    expect(entries).toHaveLength(1);
  });
});
