import type { ContentGate, CreateContent } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { ContentRow } from '../../../db/creators.schema';
import { capsuleFanbaseOf } from '../public/capsule-fanbase';

type GateInput = CreateContent['gate'];

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { message, param, details: { [param]: [message] } });

/** A gate needs the organization's fanbase; `tiers` names at least one of its tiers, `members` none. */
export async function checkGate(ctx: AppContext, scope: Scope, organizationId: string, gate: GateInput) {
  if (!gate) return;
  const tiers = gate.tiers ?? [];
  if (gate.type === 'tiers' && tiers.length === 0) throw invalid('gate.tiers', 'A `tiers` gate names at least one tier.');
  if (gate.type === 'members' && tiers.length > 0) throw invalid('gate.tiers', 'A `members` gate takes no tiers.');
  const known = await capsuleFanbaseOf(ctx)?.tiersOfOrganization(ctx, scope, organizationId, tiers);
  if (!known) throw invalid('gate', 'Only an organization with a fanbase can gate content.');
  const missing = tiers.findIndex((id) => !known.has(id));
  if (missing >= 0) throw invalid(`gate.tiers.${missing}`, `No such tier of the organization's fanbase: '${tiers[missing]}'.`);
}

export const gateColumns = (gate: GateInput) => ({ gate_type: gate?.type ?? null, gate_tier_ids: gate ? [...new Set(gate.tiers ?? [])] : [] });

export const gateOf = (row: ContentRow): ContentGate | null => (row.gate_type ? { type: row.gate_type, tiers: row.gate_tier_ids } : null);

/**
 * The gated rows among `rows` that the viewer may not see: not an active member of the organization's fanbase,
 * or (`tiers`) holding none of the gate's tiers. Without a viewer every gated row is locked.
 */
export async function lockedContents(ctx: AppContext, scope: Scope, rows: readonly ContentRow[], viewer: string | null): Promise<Set<string>> {
  const gated = rows.filter((r) => r.gate_type !== null);
  if (gated.length === 0) return new Set();
  const source = capsuleFanbaseOf(ctx);
  const held = viewer && source ? await source.heldTiers(ctx, scope, viewer, [...new Set(gated.map((r) => r.organization_id))]) : new Map<string, string[]>();
  const opens = (r: ContentRow) => {
    const tiers = held.get(r.organization_id);
    return tiers !== undefined && (r.gate_type === 'members' || r.gate_tier_ids.some((t) => tiers.includes(t)));
  };
  return new Set(gated.filter((r) => !opens(r)).map((r) => r.id));
}
