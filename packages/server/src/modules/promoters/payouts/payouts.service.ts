import type { CursorPageQuery } from '@svc/contract';
import { z } from 'zod';
import { CreatePayoutSchema } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitPreparedEvents, envelopeOf, type PreparedEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { PayoutRow } from '../../../db/promoters.schema';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { getOrganizationRow } from '../../identity';
import { payoutConfig, type PayoutState } from '../../payments';
import { PAYOUT_CHECK_AFTER_MS, sendPayoutJobType } from './provider-payout.job';
import { readableOrganizations, type OrganizerCaller } from '../promoters-access';
import { getPromoterRow, promoterIdsOfOrganizations } from '../promoters/promoters.service';
import { simulatedPayoutJobType } from './simulated-payout.job';
import * as repo from './payouts.repository';
import { serializePayout } from './payouts.serializer';

type CreateInput = z.infer<typeof CreatePayoutSchema>;
const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());
const unavailable = (param: string, message: string) => ApiError.of('payout_method_unavailable', { param, message });
const noPayable = () => ApiError.of('no_payable_commissions', { message: 'No approved balance above 0 to pay out in this currency.' });

export const payoutEvent = (scope: Scope, type: 'promoters.payout.created' | 'promoters.payout.paid' | 'promoters.payout.failed', row: PayoutRow, previous?: Record<string, unknown>): PreparedEvent => ({
  scope,
  envelope: envelopeOf(scope, { type, subject: row.id, object: serializePayout(row), ...(previous && { previousAttributes: previous }) }),
});

/**
 * `mpesa_b2c`'s checks before anything is locked: KES, a Kenyan phone, and an M-Pesa configuration that can
 * pay out (named, or the first of the organization's effective list). Test mode without one: the simulator.
 */
async function mpesaConfig(ctx: AppContext, scope: Scope, organizationId: string, currency: string, phone: string | null, named?: string) {
  if (currency !== 'KES') throw unavailable('currency', 'M-Pesa pays out KES only.');
  if (!phone || !/^\+254\d{9}$/.test(phone)) throw unavailable('phone', 'An M-Pesa payout needs a +254 phone: give `phone` or set the promoter\'s.');
  const config = await payoutConfig(ctx, scope, organizationId, named);
  if (config) return config.id;
  if (named) throw unavailable('provider_config', 'This configuration cannot pay out: it needs `b2c_shortcode` and the initiator, and must be active.');
  if (scope.livemode) throw unavailable('method', 'No M-Pesa configuration of this organization can pay out: add `b2c_shortcode` and the initiator to one, or pay `manual`.');
  return null;
}

/**
 * Products-api § 4.5. The promoter row is locked first, so payouts of one promoter take turns: the second
 * finds the entries already in the first and is refused `409 no_payable_commissions`. Every `approved` entry
 * of the currency not yet in a payout goes in, reversals too; the payout, its entries and its events commit
 * together. `manual` is `paid` at once; `mpesa_b2c` is `pending` until the provider's result (test mode: the
 * simulator's, by a job in the same transaction; with an M-Pesa configuration, Daraja's B2C result).
 */
export async function createPayout(ctx: AppContext, caller: OrganizerCaller, promoterId: string, input: CreateInput) {
  const promoter = await getPromoterRow(ctx, caller, promoterId, 'promoters:payout');
  const scope = caller.scope;
  const currency = input.currency ?? (await getOrganizationRow(ctx.db, scope, promoter.organization_id)).currency;
  const phone = input.phone ?? promoter.phone;
  const configId = input.method === 'mpesa_b2c' ? await mpesaConfig(ctx, scope, promoter.organization_id, currency, phone, input.provider_config) : null;
  if (input.method === 'manual' && !input.reference) {
    throw ApiError.of('validation_failed', { param: 'reference', message: 'A manual payout records where the money went.', details: { reference: ['Required for `manual`.'] } });
  }
  const now = nowOf(ctx);
  const row = await ctx.db.transaction().execute(async (trx) => {
    await scoped(trx, scope).selectFrom('promoters').select('id').where('id', '=', promoter.id).forUpdate().executeTakeFirstOrThrow();
    const entries = (await repo.payableEntries(trx, scope, promoter.id)).filter((e) => e.currency === currency);
    const amount = entries.reduce((s, e) => s + e.amount, 0);
    if (entries.length === 0 || amount <= 0) throw noPayable();
    if (configId && amount % 100 !== 0) throw unavailable('amount', 'M-Pesa pays out whole shillings: pay this balance `manual`.');
    const manual = input.method === 'manual';
    const payout = await repo.insertPayout(trx, scope, {
      id: newId('payout'),
      promoter_id: promoter.id,
      organization_id: promoter.organization_id,
      amount,
      currency,
      method: input.method,
      status: manual ? 'paid' : 'pending',
      reference: manual ? input.reference! : null,
      phone: manual ? null : phone,
      provider_config_id: configId,
      provider_reference: null,
      failure_code: null,
      failure_message: null,
      paid_at: manual ? now : null,
      // A provider's result normally comes within minutes; without one, Transaction Status is asked after this.
      next_check_at: configId ? new Date(now.getTime() + PAYOUT_CHECK_AFTER_MS) : null,
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
    });
    // Only entries still approved and in no payout: a racing payout that got here first leaves none.
    const taken = await scoped(trx, scope)
      .updateTable('commissions')
      .set(manual ? { payout_id: payout.id, status: 'paid', paid_at: now } : { payout_id: payout.id })
      .where('id', 'in', entries.map((e) => e.id))
      .where('status', '=', 'approved')
      .where('payout_id', 'is', null)
      .returning('id')
      .execute();
    if (taken.length !== entries.length) throw noPayable();
    const events = [payoutEvent(scope, 'promoters.payout.created', payout)];
    if (manual) events.push(payoutEvent(scope, 'promoters.payout.paid', payout, { status: 'pending' }));
    await emitPreparedEvents(trx, events);
    const job = { tenant_id: scope.tenantId, livemode: scope.livemode, payout_id: payout.id };
    // The provider is called after the commit, by a job: no network call holds the promoter's lock.
    if (!manual) await sendInTransaction(trx, [configId ? jobOf(sendPayoutJobType, job) : jobOf(simulatedPayoutJobType, job)]);
    return payout;
  });
  return serializePayout(row);
}

/**
 * A pending payout's result: `paid` makes it and its entries paid; a failure makes it `failed` and its entries
 * `approved` again (out of the payout), all in one transaction with the event. A repeated result changes nothing.
 */
export async function settlePayout(ctx: AppContext, scope: Scope, id: string, result: PayoutState) {
  const now = nowOf(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const settled = await repo.settlePendingPayout(
      trx,
      scope,
      id,
      result.status === 'paid'
        ? { status: 'paid', reference: result.reference, paid_at: now }
        : { status: 'failed', failure_code: result.code, failure_message: result.message },
    );
    if (!settled) return undefined;
    const entries = scoped(trx, scope).updateTable('commissions').where('payout_id', '=', id);
    if (result.status === 'paid') await entries.set({ status: 'paid', paid_at: now }).execute();
    else await entries.set({ payout_id: null }).execute();
    await emitPreparedEvents(trx, [payoutEvent(scope, result.status === 'paid' ? 'promoters.payout.paid' : 'promoters.payout.failed', settled, { status: 'pending' })]);
    return settled;
  });
}

export async function retrievePayout(ctx: AppContext, caller: OrganizerCaller, id: string) {
  const row = await repo.findPayout(ctx.db, caller.scope, id);
  if (!row) throw ApiError.notFound('payout', id);
  await getPromoterRow(ctx, caller, row.promoter_id, 'promoters:read');
  return serializePayout(row);
}

export async function listPayouts(ctx: AppContext, caller: OrganizerCaller, f: { promoter?: string; status?: string; method?: string }, page: CursorPageQuery) {
  const organizations = await readableOrganizations(ctx, caller);
  const promoters = organizations ? await promoterIdsOfOrganizations(ctx, caller.scope, organizations) : undefined;
  const listed = await repo.listPayouts(ctx.db, caller.scope, { ...f, promoters }, page);
  return { ...listed, data: listed.data.map(serializePayout) };
}

export const listPayoutsOf = async (ctx: AppContext, scope: Scope, promoters: readonly string[], page: CursorPageQuery) => {
  const listed = await repo.listPayouts(ctx.db, scope, { promoters }, page);
  return { ...listed, data: listed.data.map(serializePayout) };
};
