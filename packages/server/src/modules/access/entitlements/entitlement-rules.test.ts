import { describe, expect, it } from 'vitest';
import type { EntitlementRow } from '../../../db/access.schema';
import { chooseEntitlement, denialReason, effectiveStatus } from './entitlement-rules';

const NOW = new Date('2026-06-01T12:00:00Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const limits = { max_devices: null, max_concurrent_sessions: null, concurrency_policy: 'replace_oldest' as const, max_views: null, allowed_countries: null, allowed_domains: null };
const row = (over: Partial<EntitlementRow> = {}) =>
  ({ id: 'ent_1', status: 'active', starts_at: null, ends_at: null, limits, ...over }) as EntitlementRow;
const nowhere = { country: null, domain: null };

describe('effectiveStatus', () => {
  it('shows an active entitlement past its end as expired, and nothing else changes', () => {
    expect(effectiveStatus(row({ ends_at: at(-1) }), NOW)).toBe('expired');
    expect(effectiveStatus(row({ ends_at: NOW }), NOW)).toBe('expired');
    expect(effectiveStatus(row({ ends_at: at(1) }), NOW)).toBe('active');
    expect(effectiveStatus(row({ status: 'suspended', ends_at: at(-1) }), NOW)).toBe('suspended');
    expect(effectiveStatus(row({ status: 'revoked' }), NOW)).toBe('revoked');
  });
});

describe('denialReason', () => {
  it.each([
    ['revoked', row({ status: 'revoked' }), nowhere],
    ['suspended', row({ status: 'suspended' }), nowhere],
    ['expired', row({ status: 'expired' }), nowhere],
    ['expired', row({ ends_at: at(-1) }), nowhere],
    ['not_started', row({ starts_at: at(1) }), nowhere],
    ['country_not_allowed', row({ limits: { ...limits, allowed_countries: ['KE'] } }), { country: 'UG', domain: null }],
    ['country_not_allowed', row({ limits: { ...limits, allowed_countries: ['KE'] } }), nowhere],
    ['domain_not_allowed', row({ limits: { ...limits, allowed_domains: ['a.example'] } }), { country: null, domain: 'www.a.example' }],
    ['domain_not_allowed', row({ limits: { ...limits, allowed_domains: ['a.example'] } }), nowhere],
  ] as const)('%s', (reason, r, place) => {
    expect(denialReason(r, NOW, place)).toBe(reason);
  });

  it('lets in an active, started entitlement whose place matches', () => {
    const r = row({ starts_at: at(-1), ends_at: at(1), limits: { ...limits, allowed_countries: ['KE'], allowed_domains: ['a.example'] } });
    expect(denialReason(r, NOW, { country: 'KE', domain: 'a.example' })).toBeNull();
  });
});

describe('chooseEntitlement', () => {
  it('answers no_entitlement for none', () => {
    expect(chooseEntitlement([], NOW, nowhere)).toEqual({ row: null, reason: 'no_entitlement' });
  });

  it('prefers one that lets in, the longest-lasting, then the newest', () => {
    const revoked = row({ id: 'ent_9', status: 'revoked' });
    const short = row({ id: 'ent_2', ends_at: at(1000) });
    const long = row({ id: 'ent_1', ends_at: at(5000) });
    const forever = row({ id: 'ent_0' });
    expect(chooseEntitlement([revoked, short], NOW, nowhere).row?.id).toBe('ent_2');
    expect(chooseEntitlement([short, long], NOW, nowhere).row?.id).toBe('ent_1');
    expect(chooseEntitlement([long, forever, short], NOW, nowhere).row?.id).toBe('ent_0');
    expect(chooseEntitlement([row({ id: 'ent_a' }), row({ id: 'ent_b' })], NOW, nowhere).row?.id).toBe('ent_b');
  });

  it('reports the refusal closest to allowed', () => {
    const revoked = row({ id: 'ent_1', status: 'revoked' });
    const suspended = row({ id: 'ent_2', status: 'suspended' });
    const later = row({ id: 'ent_3', starts_at: at(1) });
    expect(chooseEntitlement([revoked, suspended], NOW, nowhere)).toMatchObject({ reason: 'suspended' });
    expect(chooseEntitlement([revoked, suspended, later], NOW, nowhere)).toMatchObject({ reason: 'not_started', row: { id: 'ent_3' } });
  });
});
