import type { SecretBox } from '../../../core/secret-box';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { Referral, ReferralTouch } from '../../ticketing';
import { countTrackingClick } from '../tracking-codes/tracking-codes.service';
import { loadCandidate } from './attribute-order';
import { makeReferralToken } from './referral-token';

const DAY_MS = 86_400_000;

/**
 * A visitor opened an event page with `?ref=CODE`: one click per visitor, code and day, and for an active code of
 * an active promoter of the event's organization (not aimed at another event) a token carrying the touch time.
 */
export async function touchReferral(secrets: SecretBox, db: Executor, scope: Scope, touch: ReferralTouch): Promise<Referral | null> {
  if (!/^[A-Za-z0-9_-]{3,40}$/.test(touch.code)) return null;
  const c = await loadCandidate(db, scope, { code: touch.code });
  if (!c?.code_id || c.organization_id !== touch.organizationId) return null;
  await countTrackingClick(db, c.code_id, touch.visitor, touch.now.toISOString().slice(0, 10));
  if (!c.code_active || c.promoter_status !== 'active') return null;
  if (c.code_target_type === 'event' && c.code_target_id !== touch.eventId) return null;
  return {
    token: makeReferralToken(secrets, scope, touch.code, touch.now),
    expires_at: new Date(touch.now.getTime() + c.attribution_window_days * DAY_MS).toISOString(),
  };
}
