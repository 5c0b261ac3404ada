import type { Invalid } from '../commerce/merch';

/** How the person names the customer to comp: their `cus_` id, or an email or phone to look up. */
export type CustomerLookup = { customer: string } | { email: string } | { phone: string };

/** The lookup field as typed: a `cus_` id, an email, or an E.164 phone (spaces and dashes allowed). */
export function customerLookup(text: string): CustomerLookup | Invalid {
  const value = text.trim();
  if (!value) return { invalid: "Type the customer's email, phone or cus_ id." };
  if (/^cus_[A-Za-z0-9]+$/.test(value)) return { customer: value };
  if (value.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { email: value.toLowerCase() } : { invalid: `'${value}' is not an email address.` };
  const phone = value.replace(/[\s-]/g, '');
  // Customers are stored with the country code; a local number could belong to any country.
  if (/^\+\d{7,15}$/.test(phone)) return { phone };
  return { invalid: 'Type a phone with its country code, e.g. +254712345678, or an email or cus_ id.' };
}

export interface CompBody {
  customer: string;
  tier: string | null;
  ends_at: string | null;
}

/** The comp member's request: the chosen customer, the tier (or none) and the end, a `datetime-local` in the future or empty. */
export function compBody(customer: string | null, tier: string, endsAt: string, now = new Date()): CompBody | Invalid {
  if (!customer) return { invalid: 'Find the customer first.' };
  let ends: string | null = null;
  if (endsAt) {
    const at = new Date(endsAt);
    if (Number.isNaN(at.getTime())) return { invalid: 'The end is not a date.' };
    if (at.getTime() <= now.getTime()) return { invalid: 'The end must be in the future.' };
    ends = at.toISOString();
  }
  return { customer, tier: tier || null, ends_at: ends };
}
