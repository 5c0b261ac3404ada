import type { Transaction } from 'kysely';
import { brandOf } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { SubscriptionRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { findCustomer, writeMessages, type NewMessage } from '../../identity';

const money = (amount: number, currency: string) => `${currency} ${(amount / 100).toFixed(2)}`;
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : '');

/**
 * A message to the subscriber by every contact their customer has (email, SMS): captured in test mode, sent in
 * live mode, in the organization's brand, in the caller's transaction.
 */
async function tell(trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, m: Pick<NewMessage, 'template' | 'subject' | 'body'>) {
  const customer = await findCustomer(trx, scope, sub.customer);
  if (!customer) return;
  const brand = await brandOf(ctx, scope, sub.organization_id);
  const related = [sub.id, ...(sub.latest_order_id ? [sub.latest_order_id] : [])];
  const messages: NewMessage[] = [];
  if (customer.email) messages.push({ channel: 'email', to: customer.email, ...m, related, brand });
  if (customer.phone) messages.push({ channel: 'sms', to: customer.phone, ...m, subject: null, related, brand });
  await writeMessages(trx, scope, messages);
}

/** A receipt for the period just paid. */
export const sendReceipt = (trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, tierName: string) =>
  tell(trx, ctx, scope, sub, {
    template: 'subscription_receipt',
    subject: `Receipt: ${tierName}`,
    body: `Paid ${money(Number(sub.amount), sub.currency)} for ${tierName}${sub.current_period_end ? `, ${day(sub.current_period_start)} to ${day(sub.current_period_end)}` : ''}.`,
  });

/** The renewal notice and its reminders: the checkout page to pay the next period at. */
export const sendRenewalReminder = (trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, tierName: string) =>
  tell(trx, ctx, scope, sub, {
    template: 'subscription_renewal',
    subject: `Renew ${tierName}`,
    body:
      sub.status === 'past_due'
        ? `Your ${tierName} membership is unpaid since ${day(sub.current_period_end)}; access continues until ${day(sub.grace_ends_at)}. Pay here: ${sub.checkout_url}`
        : `Your ${tierName} membership renews on ${day(sub.current_period_end)} (${money(Number(sub.amount), sub.currency)}). Pay here: ${sub.checkout_url}`,
  });

/** An automatic renewal's charge was declined: the grace, and the checkout page to pay another way. */
export const sendRenewalFailed = (trx: Transaction<DB>, ctx: AppContext, scope: Scope, sub: SubscriptionRow, tierName: string) =>
  tell(trx, ctx, scope, sub, {
    template: 'subscription_renewal_failed',
    subject: `Payment failed: ${tierName}`,
    body: `We could not charge your saved card ${money(Number(sub.amount), sub.currency)} for ${tierName}; access continues until ${day(sub.grace_ends_at)}. Pay another way here: ${sub.checkout_url}`,
  });
