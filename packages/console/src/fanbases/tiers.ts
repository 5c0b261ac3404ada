import type { MembershipTier } from '@svc/contract';
import { isInvalid, type Invalid } from '../commerce/merch';
import { amountText, parseMoney } from '../format';

export interface TierForm {
  name: string;
  description: string;
  price: string;
  interval: '' | 'month' | 'year' | 'one_time';
  benefits: string;
  grants: string;
  maxMembers: string;
  status: MembershipTier['status'];
}

export const emptyTierForm = (): TierForm => ({ name: '', description: '', price: '0', interval: '', benefits: '', grants: '', maxMembers: '', status: 'draft' });

export const tierForm = (t: MembershipTier): TierForm => ({
  name: t.name,
  description: t.description ?? '',
  price: amountText(t.price, t.currency),
  interval: t.interval ?? '',
  benefits: t.benefits.join('\n'),
  grants: t.grants.map((g) => g.id).join('\n'),
  maxMembers: t.max_members === null ? '' : String(t.max_members),
  status: t.status,
});

const GRANT_TYPES = { ls_: 'ls', ast_: 'ast', cnt_: 'cnt' } as const;

/** What a tier grants, typed as ids one a line: live streams (`ls_`), assets (`ast_`), content items (`cnt_`). */
export function tierGrantsOf(text: string): MembershipTier['grants'] | Invalid {
  const grants: MembershipTier['grants'] = [];
  for (const id of text.split(/\s+/).filter(Boolean)) {
    const prefix = (Object.keys(GRANT_TYPES) as Array<keyof typeof GRANT_TYPES>).find((p) => id.startsWith(p));
    if (!prefix) return { invalid: `'${id}' is not a live stream (ls_…), an asset (ast_…) or a content item (cnt_…).` };
    grants.push({ type: GRANT_TYPES[prefix], id });
  }
  return grants;
}

/**
 * The body of `POST …/tiers` (and, for a tier that exists, of its `PATCH`) from the form, or what is wrong with it:
 * a free tier (price 0) has no interval, a paid one needs one, as the API would refuse otherwise.
 */
export function tierBody(form: TierForm, currency: string) {
  const price = parseMoney(form.price || '0', currency);
  if (price === null) return { invalid: `Enter the price in ${currency}, e.g. 500 or 500.50; 0 is the free tier.` };
  if (price === 0 && form.interval) return { invalid: 'The free tier has no interval: leave it empty, or set a price.' };
  if (price > 0 && !form.interval) return { invalid: 'A paid tier renews by month or year, or is paid once: choose its interval.' };
  const grants = tierGrantsOf(form.grants);
  if (isInvalid(grants)) return grants;
  const max = form.maxMembers.trim();
  if (max && !/^[1-9]\d*$/.test(max)) return { invalid: 'Enter the most members as a whole number, or leave it empty for no limit.' };
  return {
    name: form.name.trim(),
    description: form.description.trim() ? form.description.trim() : null,
    price,
    interval: form.interval || null,
    benefits: form.benefits.split('\n').map((b) => b.trim()).filter(Boolean),
    grants,
    max_members: max ? Number(max) : null,
    status: form.status,
  };
}

/** A tier's price as a person reads it: `Free`, `KES 500.00 a month`, `KES 2,000.00 once`. */
export function tierPrice(t: Pick<MembershipTier, 'price' | 'currency' | 'interval'>, format: (minor: number, currency: string) => string): string {
  if (t.price === 0) return 'Free';
  const per = t.interval === 'month' ? ' a month' : t.interval === 'year' ? ' a year' : ' once';
  return format(t.price, t.currency) + per;
}
