import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { DomainRow } from '../../../db/whitelabel.schema';
import { probeOf } from './domain-probe';
import { ACTIVE_RECHECK_MS, applyMove, backoffMs, forgetServedDomains, GIVE_UP_MS, toActive, toFailed, toVerified, TXT_MISSES_TO_FAIL, type Move } from './domain-transitions';
import * as repo from './domains.repository';
import { challengeName } from './domains.serializer';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

/** What the probe found: the TXT value published, and (once verified) whether the host answers with its token. */
async function probe(ctx: AppContext, row: DomainRow): Promise<{ txt: boolean; routed: boolean }> {
  const p = probeOf(ctx);
  const records = await p.resolveTxt(challengeName(row.hostname)).catch(() => [] as string[][]);
  const txt = records.some((chunks) => chunks.join('') === row.verification_value);
  const routed = row.status === 'verified' && txt ? (await p.fetchCheck(row.hostname).catch(() => null)) === row.check_token : false;
  return { txt, routed };
}

/** The move one check makes, from the row and what was found; `null` when only the schedule changes. */
export function nextMove(row: DomainRow, found: { txt: boolean; routed: boolean }, now: Date): Move {
  const waited = now.getTime() - new Date(row.status === 'verified' ? row.verified_at! : row.created_at).getTime();
  const later: Move = { checks: row.checks + 1, next_check_at: new Date(now.getTime() + backoffMs(row.checks + 1)) };
  switch (row.status) {
    case 'pending_verification':
      if (found.txt) return toVerified(now);
      return waited >= GIVE_UP_MS ? toFailed(now, 'txt_not_found') : later;
    case 'verified':
      if (found.routed) return toActive(now);
      return waited >= GIVE_UP_MS ? toFailed(now, 'not_routed') : later;
    case 'active': {
      if (found.txt) return { txt_misses: 0, next_check_at: new Date(now.getTime() + ACTIVE_RECHECK_MS) };
      const misses = row.txt_misses + 1;
      return misses >= TXT_MISSES_TO_FAIL ? toFailed(now, 'txt_removed') : { txt_misses: misses, next_check_at: new Date(now.getTime() + ACTIVE_RECHECK_MS) };
    }
    case 'failed':
      return { next_check_at: null };
  }
}

/**
 * Checks one domain now and applies what was found in one transaction with its event. DNS and HTTPS are asked
 * outside the transaction; a row that changed meanwhile is left to the next check. A hostname another tenant
 * verified first stays `pending_verification` here (`409 domain_taken` to a caller who asked).
 */
export async function checkDomain(ctx: AppContext, scope: Scope, id: string): Promise<DomainRow> {
  const before = await repo.findDomain(ctx.db, scope, id);
  if (!before) throw ApiError.notFound('domain', id);
  const found = await probe(ctx, before);
  const now = nowOf(ctx);
  const after = await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findDomain(trx, scope, id, { forUpdate: true });
    if (!row || row.status !== before.status) return row;
    const move: Move = { ...nextMove(row, found, now), last_checked_at: now };
    if (move.status === 'verified') {
      const claim = await repo.findClaim(trx, row.hostname);
      if (claim && claim.id !== row.id) return repo.updateDomain(trx, scope, id, { last_checked_at: now, checks: row.checks + 1, next_check_at: new Date(now.getTime() + backoffMs(row.checks + 1)) });
    }
    return applyMove(ctx, trx, scope, row, move);
  });
  if (!after) throw ApiError.notFound('domain', id);
  if (after.status !== before.status) forgetServedDomains(ctx);
  return after;
}
