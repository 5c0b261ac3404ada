import type { ContentGate, CreateTicketedEventInput } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { modulePart } from '../../../core/modules/module-definition';
import type { Scope } from '../../../core/scope';

/**
 * Membership facts as ticketing needs them for gated events. The fanbases module registers itself here at setup
 * (it depends on ticketing, so ticketing imports none of its code); without it no gate can be set or opened.
 */
export interface EventMembershipSource {
  /** Per organization where the customer is an active member, the tiers the membership holds now. */
  heldTiers(ctx: AppContext, scope: Scope, customer: string, organizationIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Which of `ids` are tiers of the organization's fanbase; `null` when it has no fanbase. */
  tiersOfOrganization(ctx: AppContext, scope: Scope, organizationId: string, ids: readonly string[]): Promise<Set<string> | null>;
}

export const eventMembershipPart = modulePart<EventMembershipSource>('ticketing.event-membership');
const sourceOf = (ctx: AppContext) => (ctx.parts.has('ticketing.event-membership') ? eventMembershipPart.of(ctx) : undefined);

type GateInput = CreateTicketedEventInput['gate'];
interface Gated {
  id: string;
  organization_id: string;
  gate_type: 'members' | 'tiers' | null;
  gate_tier_ids: string[];
}

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { message, param, details: { [param]: [message] } });

/** A gate needs the organization's fanbase; `tiers` names at least one of its tiers, `members` none. */
export async function checkEventGate(ctx: AppContext, scope: Scope, organizationId: string, gate: GateInput) {
  if (!gate) return;
  const tiers = gate.tiers ?? [];
  if (gate.type === 'tiers' && tiers.length === 0) throw invalid('gate.tiers', 'A `tiers` gate names at least one tier.');
  if (gate.type === 'members' && tiers.length > 0) throw invalid('gate.tiers', 'A `members` gate takes no tiers.');
  const known = await sourceOf(ctx)?.tiersOfOrganization(ctx, scope, organizationId, tiers);
  if (!known) throw invalid('gate', 'Only an organization with a fanbase can gate an event.');
  const missing = tiers.findIndex((id) => !known.has(id));
  if (missing >= 0) throw invalid(`gate.tiers.${missing}`, `No such tier of the organization's fanbase: '${tiers[missing]}'.`);
}

export const eventGateColumns = (gate: GateInput) => ({ gate_type: gate?.type ?? null, gate_tier_ids: gate ? [...new Set(gate.tiers ?? [])] : [] });

export const eventGateOf = (row: Pick<Gated, 'gate_type' | 'gate_tier_ids'>): ContentGate | null => (row.gate_type ? { type: row.gate_type, tiers: row.gate_tier_ids } : null);

/**
 * The gated events among `rows` the customer may not book: not an active member of the organization's fanbase,
 * or (`tiers`) holding none of the gate's tiers. Without a customer every gated event is locked.
 */
export async function lockedEvents(ctx: AppContext, scope: Scope, rows: readonly Gated[], customer: string | null): Promise<Set<string>> {
  const gated = rows.filter((r) => r.gate_type !== null);
  if (gated.length === 0) return new Set();
  const source = sourceOf(ctx);
  const held = customer && source ? await source.heldTiers(ctx, scope, customer, [...new Set(gated.map((r) => r.organization_id))]) : new Map<string, string[]>();
  const opens = (r: Gated) => {
    const tiers = held.get(r.organization_id);
    return tiers !== undefined && (r.gate_type === 'members' || r.gate_tier_ids.some((t) => tiers.includes(t)));
  };
  return new Set(gated.filter((r) => !opens(r)).map((r) => r.id));
}

/** Booking a gated event: the buyer's customer must be entitled, else `403 access_denied` (`reason: members_only`). */
export async function requireEventEntry(ctx: AppContext, scope: Scope, event: Gated, customer: string | null) {
  if (event.gate_type === null || (await lockedEvents(ctx, scope, [event], customer)).size === 0) return;
  throw ApiError.of('access_denied', {
    message: event.gate_type === 'members' ? "Only members of the organization's fanbase may book this event." : 'Only members holding one of its tiers may book this event.',
    details: { reason: 'members_only', gate: eventGateOf(event) },
  });
}
