import { ApiError } from '../../../core/errors';
import type { Principal } from '../../../core/principal';
import type { ViewerPlace } from '../entitlements/entitlement-rules';
import type { Subject } from '../entitlements/entitlement-rows.service';

/**
 * Who acts on sessions: a viewer (publishable key and customer token; the token's `sub` is the customer, its
 * `ctry` the country, the `Origin` host the domain) or a server (secret or restricted key; any session of
 * its environment, narrowed to one customer when it names one).
 */
export type SessionCaller =
  | { kind: 'viewer'; customer: string; place: ViewerPlace; tokenKeyId: string }
  | { kind: 'server' };

/** The host of an `Origin` header (with a port other than the default), or `null` when there is none. */
export function originHost(origin: string | undefined): string | null {
  if (!origin || origin === 'null') return null;
  try {
    return new URL(origin).host.toLowerCase() || null;
  } catch {
    return null;
  }
}

export function sessionCaller(principal: Principal | undefined, origin: string | undefined): SessionCaller {
  if (principal?.kind === 'customer') {
    return {
      kind: 'viewer',
      customer: principal.customer,
      place: { country: principal.country, domain: originHost(origin) },
      tokenKeyId: principal.tokenKeyId,
    };
  }
  if (principal?.kind === 'secret' || principal?.kind === 'restricted') return { kind: 'server' };
  throw new Error('session route reached without a server key or a customer token');
}

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { message, param, details: { [param]: [message] } });

/**
 * Who a new session is for. A viewer is the token's `sub`: a different `customer`, or a `contact_hash`, is
 * refused rather than ignored. A server names exactly one of `customer` and `contact_hash`.
 */
export function subjectForOpen(caller: SessionCaller, input: { customer?: string; contact_hash?: string }): Subject {
  if (caller.kind === 'viewer') {
    if (input.customer !== undefined && input.customer !== caller.customer) {
      throw invalid('customer', 'Omit `customer` with a publishable key: the customer is the token\'s `sub`.');
    }
    if (input.contact_hash !== undefined) throw invalid('contact_hash', 'A publishable key opens sessions for the token\'s `sub` only.');
    return { customer: caller.customer, contact_hash: null };
  }
  if ((input.customer === undefined) === (input.contact_hash === undefined)) {
    throw invalid('customer', 'Send exactly one of `customer` and `contact_hash`.');
  }
  return { customer: input.customer ?? null, contact_hash: input.contact_hash?.toLowerCase() ?? null };
}

/** Whether the caller may act on a session of this subject; another's session is answered `404`. */
export function mayActOn(
  caller: SessionCaller,
  session: Subject,
  named: { customer?: string; contact_hash?: string } | undefined,
): boolean {
  if (caller.kind === 'viewer') return session.customer === caller.customer;
  if (named?.customer !== undefined && session.customer !== named.customer) return false;
  if (named?.contact_hash !== undefined && session.contact_hash !== named.contact_hash.toLowerCase()) return false;
  return true;
}
