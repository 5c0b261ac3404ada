import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { EntitlementLimitsColumn } from '../../src/db/access.schema';
import { newId } from '../../src/core/ids';
import { openSessions, type OpenItem } from '../../src/modules/access/sessions/sessions.repository';
import { activeSessions, entitled, now, useAccessTestServer } from './access-fixtures';

const t = useAccessTestServer();

/**
 * Opens arriving together go to the database in one `access_open_sessions` call. Each is decided on its own,
 * in order, seeing the sessions the ones before it opened; a refused one changes nothing for the others.
 */
describe('opens decided in one call', () => {
  async function viewer(limits: Record<string, unknown>) {
    const e = await entitled(t, limits);
    const scope = { tenantId: e.tenant.tenant.id, livemode: false };
    const row = await t.ctx.db
      .selectFrom('entitlements')
      .select(['status', 'starts_at', 'ends_at', 'limits'])
      .where('id', '=', e.entitlement.id)
      .executeTakeFirstOrThrow();
    const item = (device: string): OpenItem => ({
      scope,
      entitlement: { ...row, limits: row.limits as EntitlementLimitsColumn },
      now: now(t),
      session: {
        id: newId('access_session'),
        entitlement_id: e.entitlement.id,
        customer: 'viewer-1',
        contact_hash: null,
        resource_type: 'ls',
        resource_id: e.stream.id,
        variant: null,
        device_id: device,
        state: 'active',
        ended_reason: null,
        playback_id: e.stream.playback_ids[0].id,
        playback_policy: e.stream.playback_ids[0].policy,
        provider: 'simulated',
        token_key_id: null,
        last_heartbeat_at: now(t),
        expires_at: new Date(now(t).getTime() + 90_000),
        created_at: now(t),
        ended_at: null,
      },
    });
    return { e, item };
  }

  it('answers each open in its place, applying the limits open by open', async () => {
    const capped = await viewer({ max_concurrent_sessions: 2, concurrency_policy: 'reject_new' });
    const devices = await viewer({ max_devices: 1 });
    const replacing = await viewer({ max_concurrent_sessions: 1, concurrency_policy: 'replace_oldest' });
    const refusals = await openSessions(t.ctx.db, [
      capped.item('a'),
      devices.item('phone'),
      capped.item('b'),
      replacing.item('x'),
      devices.item('laptop'),
      capped.item('c'),
      replacing.item('y'),
    ]);
    expect(refusals).toEqual([null, null, null, null, 'device_limit_reached', 'concurrency_limit_reached', null]);
    expect(await activeSessions(t, capped.e.entitlement.id)).toEqual(['a', 'b']);
    expect(await activeSessions(t, devices.e.entitlement.id)).toEqual(['phone']);
    expect(await activeSessions(t, replacing.e.entitlement.id)).toEqual(['y']);
  });

  it('refuses an open whose entitlement changed since it was read, and only that one', async () => {
    const kept = await viewer({});
    const revoked = await viewer({});
    await t.ctx.db.updateTable('entitlements').set({ status: 'revoked' }).where('id', '=', revoked.e.entitlement.id).execute();
    expect(await openSessions(t.ctx.db, [revoked.item('a'), kept.item('a')])).toEqual(['entitlement_changed', null]);
    expect(await activeSessions(t, revoked.e.entitlement.id)).toEqual([]);
    expect(await activeSessions(t, kept.e.entitlement.id)).toEqual(['a']);
  });

  it('reads the sessions through their indexes, even with plans made while the table was nearly empty', async () => {
    const v = await viewer({ max_devices: 20, max_concurrent_sessions: 2, concurrency_policy: 'replace_oldest' });
    // Statistics gathered while the table fits in a page, as on a new deployment: there a scan of it costs least.
    expect(await openSessions(t.ctx.db, [v.item('device-first')])).toEqual([null]);
    await sql`analyze access_sessions`.execute(t.ctx.db);
    const scans = await t.ctx.db.transaction().execute(async (trx) => {
      // Past its fifth call a connection keeps the function's generic plans, made on that one page.
      for (let i = 0; i < 8; i++) expect(await openSessions(trx, [v.item(`device-${i}`)])).toEqual([null]);
      const { rows } = await sql<{ seq_scan: string; idx_scan: string }>`
        select seq_scan, idx_scan from pg_stat_xact_user_tables where relname = 'access_sessions'`.execute(trx);
      return rows[0]!;
    });
    expect(Number(scans.seq_scan)).toBe(0);
    expect(Number(scans.idx_scan)).toBeGreaterThan(0);
    expect(await activeSessions(t, v.e.entitlement.id)).toEqual(['device-6', 'device-7']);
  });
});
