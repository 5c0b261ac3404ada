import { randomBytes } from 'node:crypto';
import type { CursorPageQuery, DomainFamily } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { getOrganizationRow } from '../../identity';
import { notifyDomainsChanged } from '../whitelabel-cache';
import { checkDomain } from './check-domain';
import { dnsTargetOf } from './domain-probe';
import { applyMove, forgetServedDomains, toActive, toFailed, toPending, toVerified } from './domain-transitions';
import * as repo from './domains.repository';
import { serializeDomain } from './domains.serializer';
import { normalizeHostname } from './hostname';

export const DOMAIN_LIMIT = 20;
const VERIFY_INTERVAL_MS = 60_000;
const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
const token = (bytes: number) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32);

function checkServes(serves: readonly DomainFamily[], organizationId: string | null): DomainFamily[] {
  if (organizationId !== null && serves.includes('playback')) {
    throw ApiError.of('validation_failed', { param: 'serves', message: '`playback` is for tenant-wide domains only: streams have no organization.', details: { serves: ['playback needs a tenant-wide domain'] } });
  }
  return [...new Set(serves)];
}

const taken = (hostname: string) => ApiError.of('domain_taken', { param: 'hostname', message: `${hostname} is already claimed.` });

async function getRow(ctx: AppContext, scope: Scope, id: string) {
  const row = await repo.findDomain(ctx.db, scope, id);
  if (!row) throw ApiError.notFound('domain', id);
  return row;
}

export interface CreateDomainInput {
  hostname: string;
  organization?: string | null;
  serves?: DomainFamily[];
  trusted_origin?: boolean;
  metadata?: Record<string, string>;
}

export async function createDomain(ctx: AppContext, scope: Scope, input: CreateDomainInput) {
  const hostname = normalizeHostname(input.hostname, new URL(ctx.config.baseUrl).hostname);
  const organizationId = input.organization ? (await getOrganizationRow(ctx.db, scope, input.organization)).id : null;
  const serves = checkServes(input.serves ?? ['checkout', 'capsule'], organizationId);
  const now = nowOf(ctx);
  const row = await ctx.db.transaction().execute(async (trx) => {
    // One environment's adds queue behind each other, so the limit holds.
    await trx.selectFrom('tenants').select('id').where('id', '=', scope.tenantId).forUpdate().execute();
    if ((await repo.countDomains(trx, scope)) >= DOMAIN_LIMIT) throw ApiError.of('domain_limit_reached', { message: `An environment holds at most ${DOMAIN_LIMIT} domains.` });
    const claim = await repo.findClaim(trx, hostname);
    if (claim || (await repo.findByHostname(trx, scope, hostname))) throw taken(hostname);
    try {
      return await repo.insertDomain(trx, scope, {
        id: newId('domain'),
        hostname,
        organization_id: organizationId,
        serves,
        status: 'pending_verification',
        verification_value: `svc-domain-verification=${token(24)}`,
        check_token: token(24),
        failure_reason: null,
        trusted_origin: input.trusted_origin ?? false,
        verified_at: null,
        activated_at: null,
        failed_at: null,
        last_checked_at: null,
        next_check_at: now,
        created_at: now,
        metadata: JSON.stringify(input.metadata ?? {}),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(hostname);
      throw err;
    }
  });
  return serializeDomain(row, dnsTargetOf(ctx));
}

export async function getDomain(ctx: AppContext, scope: Scope, id: string) {
  return serializeDomain(await getRow(ctx, scope, id), dnsTargetOf(ctx));
}

export async function listDomains(ctx: AppContext, scope: Scope, filters: { status?: string; organization?: string }, page: CursorPageQuery) {
  const result = await repo.listDomains(ctx.db, scope, filters, page);
  return { ...result, data: result.data.map((row) => serializeDomain(row, dnsTargetOf(ctx))) };
}

export async function updateDomain(ctx: AppContext, scope: Scope, id: string, input: { serves?: DomainFamily[]; trusted_origin?: boolean; metadata?: Record<string, string> }) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const current = await repo.findDomain(trx, scope, id, { forUpdate: true });
    if (!current) throw ApiError.notFound('domain', id);
    const serves = input.serves ? checkServes(input.serves, current.organization_id) : undefined;
    const updated = await repo.updateDomain(trx, scope, id, {
      ...(serves ? { serves } : {}),
      ...(input.trusted_origin !== undefined ? { trusted_origin: input.trusted_origin } : {}),
      ...(input.metadata ? { metadata: JSON.stringify(input.metadata) } : {}),
    });
    if (current.status === 'active') await notifyDomainsChanged(trx);
    return updated;
  });
  forgetServedDomains(ctx);
  return serializeDomain(row, dnsTargetOf(ctx));
}

export async function deleteDomain(ctx: AppContext, scope: Scope, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findDomain(trx, scope, id, { forUpdate: true });
    if (!row) throw ApiError.notFound('domain', id);
    await repo.deleteDomain(trx, scope, id);
    await notifyDomainsChanged(trx);
  });
  forgetServedDomains(ctx);
  return { id, object: 'domain' as const, deleted: true as const };
}

/** `POST …/verify`: a failed domain starts over; any other is checked now, at most once a minute. */
export async function verifyDomain(ctx: AppContext, scope: Scope, id: string) {
  const row = await getRow(ctx, scope, id);
  const now = nowOf(ctx);
  if (row.status === 'failed') {
    await ctx.db.transaction().execute(async (trx) => applyMove(ctx, trx, scope, row, toPending(now)));
  } else if (row.last_checked_at && now.getTime() - new Date(row.last_checked_at).getTime() < VERIFY_INTERVAL_MS) {
    return serializeDomain(row, dnsTargetOf(ctx));
  }
  return serializeDomain(await checkDomain(ctx, scope, id), dnsTargetOf(ctx));
}

/** Test mode: the outcome without DNS, through the same moves and events. */
export async function simulateDomain(ctx: AppContext, scope: Scope, id: string, outcome: 'verified' | 'active' | 'failed') {
  const now = nowOf(ctx);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const current = await repo.findDomain(trx, scope, id, { forUpdate: true });
    if (!current) throw ApiError.notFound('domain', id);
    if (outcome !== 'failed') {
      const claim = await repo.findClaim(trx, current.hostname);
      if (claim && claim.id !== current.id) throw taken(current.hostname);
    }
    if (outcome === 'failed') return applyMove(ctx, trx, scope, current, { ...toFailed(now, 'txt_not_found'), last_checked_at: now });
    const verified = current.status === 'verified' || current.status === 'active' ? current : await applyMove(ctx, trx, scope, current, toVerified(now));
    return outcome === 'active' && verified.status !== 'active' ? applyMove(ctx, trx, scope, verified, toActive(now)) : verified;
  });
  forgetServedDomains(ctx);
  return serializeDomain(row, dnsTargetOf(ctx));
}
