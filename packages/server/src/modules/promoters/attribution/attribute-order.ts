import { sql } from 'kysely';
import type { SecretBox } from '../../../core/secret-box';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { AssignmentRow } from '../../../db/promoters.schema';
import type { OrderAttribution } from '../../../db/ticketing.schema';
import type { AttributionRequest, OrderItem } from '../../ticketing';
import { openReferralToken } from './referral-token';

const DAY_MS = 86_400_000;

interface Candidate {
  code_id: string | null;
  code_active: boolean | null;
  code_target_type: string | null;
  code_target_id: string | null;
  promoter_id: string;
  promoter_status: string;
  promoter_customer: string | null;
  organization_id: string;
  attribution_window_days: number;
  self_referral: string;
  assignments: AssignmentRow[];
}

/** Whether an assignment covers an item: its event (and ticket type), or the whole organization. */
export const covers = (a: Pick<AssignmentRow, 'target_type' | 'target_id' | 'ticket_type_ids'>, item: OrderItem, organizationId: string) =>
  (a.target_type === 'event' && a.target_id === item.event_id && (a.ticket_type_ids === null || (item.ticket_type_id !== null && a.ticket_type_ids.includes(item.ticket_type_id)))) ||
  (a.target_type === 'product' && a.target_id === item.product_id) ||
  (a.target_type === 'organization' && a.target_id === organizationId);

/** The assignment that covers an item: the event's or product's wins over the organization's. */
export function assignmentFor(assignments: readonly AssignmentRow[], item: OrderItem, organizationId: string): AssignmentRow | undefined {
  const covering = assignments.filter((a) => a.active && covers(a, item, organizationId));
  return covering.find((a) => a.target_type !== 'organization') ?? covering[0];
}

/**
 * The candidate promoter with its code, settings and active assignments, in one statement: by tracking code
 * (without case) or by promoter (a promoter-bound coupon).
 */
export async function loadCandidate(db: Executor, scope: Scope, by: { code: string } | { promoterId: string }): Promise<Candidate | undefined> {
  const match = 'code' in by ? sql`lower(tc.code) = lower(${by.code})` : sql`p.id = ${by.promoterId}`;
  const codeJoin = 'code' in by ? sql`join tracking_codes tc on tc.promoter_id = p.id` : sql`left join tracking_codes tc on false`;
  const { rows } = await sql<Candidate>`
    select tc.id as code_id, tc.active as code_active, tc.target_type as code_target_type, tc.target_id as code_target_id,
      p.id as promoter_id, p.status as promoter_status, p.customer_id as promoter_customer, p.organization_id,
      coalesce(s.attribution_window_days, 30) as attribution_window_days, coalesce(s.self_referral, 'ignore') as self_referral,
      (select coalesce(json_agg(a), '[]') from promoter_assignments a where a.promoter_id = p.id and a.active) as assignments
    from promoters p ${codeJoin}
    left join promoter_settings s on s.tenant_id = p.tenant_id and s.livemode = p.livemode
    where p.tenant_id = ${scope.tenantId} and p.livemode = ${scope.livemode} and ${match}
    limit 1`.execute(db);
  return rows[0];
}

/**
 * Products-api § 4.3: a promoter-bound coupon first, else a referral token touched within the window, else a
 * `ref` code touched now. The candidate is dropped when the promoter or code is not active, the code targets
 * another event, no active assignment covers an item, or the buyer is the promoter (unless the settings allow
 * self-referral). A bad code or token is never an error: the order is simply not attributed.
 */
export async function attributeOrder(secrets: SecretBox, db: Executor, scope: Scope, request: AttributionRequest): Promise<OrderAttribution | null> {
  let by: { code: string } | { promoterId: string } | null = null;
  let source: OrderAttribution['source'] = 'link';
  let touchedAt = request.now;
  if (request.couponPromoterId) {
    by = { promoterId: request.couponPromoterId };
    source = 'coupon';
  } else {
    const token = request.referral ? openReferralToken(secrets, scope, request.referral) : null;
    if (token) {
      by = { code: token.code };
      touchedAt = token.touchedAt;
    } else if (request.ref && /^[A-Za-z0-9_-]{3,40}$/.test(request.ref)) by = { code: request.ref };
  }
  if (!by) return null;
  const c = await loadCandidate(db, scope, by);
  if (!c || c.promoter_status !== 'active' || c.organization_id !== request.organizationId) return null;
  if (c.code_id && !c.code_active) return null;
  if (touchedAt.getTime() < request.now.getTime() - c.attribution_window_days * DAY_MS || touchedAt.getTime() > request.now.getTime() + 60_000) return null;
  if (c.self_referral !== 'allow' && request.customerId && c.promoter_customer === request.customerId) return null;
  // A code aimed at one event or product attributes orders of it only.
  if (c.code_target_type && !request.items.some((i) => (c.code_target_type === 'event' ? i.event_id : i.product_id) === c.code_target_id)) return null;
  const assignments = c.assignments.map((a) => ({ ...a, active: Boolean(a.active) }));
  const chosen = request.items.map((i) => assignmentFor(assignments, i, request.organizationId)).find((a) => a !== undefined);
  if (!chosen) return null;
  return { promoter: c.promoter_id, tracking_code: c.code_id, assignment: chosen.id, source, touched_at: touchedAt.toISOString() };
}
