import type { SecretBox } from '../../../core/secret-box';
import type { Scope } from '../../../core/scope';

const CONTEXT = 'promoters.referral';

/** A referral token: tenant, environment, code and touch time, sealed (authenticated) with the service's key. */
export function makeReferralToken(secrets: SecretBox, scope: Scope, code: string, touchedAt: Date): string {
  return secrets.encrypt(JSON.stringify({ t: scope.tenantId, l: scope.livemode, c: code, at: touchedAt.getTime() }), CONTEXT);
}

/** The token's code and touch time, or `null` for a token that is not one of ours for this scope. */
export function openReferralToken(secrets: SecretBox, scope: Scope, token: string): { code: string; touchedAt: Date } | null {
  try {
    const v = JSON.parse(secrets.decrypt(token, CONTEXT)) as { t: string; l: boolean; c: string; at: number };
    if (v.t !== scope.tenantId || v.l !== scope.livemode || typeof v.c !== 'string' || typeof v.at !== 'number') return null;
    return { code: v.c, touchedAt: new Date(v.at) };
  } catch {
    return null;
  }
}
