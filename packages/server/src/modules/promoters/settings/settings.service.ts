import type { PromoterSettings } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { organizationsGranting } from '../../identity';
import type { OrganizerCaller } from '../promoters-access';

export interface Settings {
  attributionWindowDays: number;
  refundWindowDays: number;
  linkTemplate: string | null;
  selfReferral: 'ignore' | 'allow';
  updatedAt: Date | null;
}

const DEFAULTS: Settings = { attributionWindowDays: 30, refundWindowDays: 7, linkTemplate: null, selfReferral: 'ignore', updatedAt: null };

export async function readSettings(db: Executor, scope: Scope): Promise<Settings> {
  const row = await scoped(db, scope).selectFrom('promoter_settings').selectAll().executeTakeFirst();
  if (!row) return DEFAULTS;
  return {
    attributionWindowDays: row.attribution_window_days,
    refundWindowDays: row.refund_window_days,
    linkTemplate: row.link_template,
    selfReferral: row.self_referral,
    updatedAt: row.updated_at,
  };
}

export const serializeSettings = (scope: Scope, s: Settings): PromoterSettings => ({
  object: 'promoter_settings',
  livemode: scope.livemode,
  attribution_window_days: s.attributionWindowDays,
  refund_window_days: s.refundWindowDays,
  link_template: s.linkTemplate,
  self_referral: s.selfReferral,
  updated_at: s.updatedAt?.toISOString() ?? null,
});

/** The environment's settings are the tenant's: a member needs the permission from their tenant role. */
async function requireTenantRole(ctx: AppContext, caller: OrganizerCaller, permission: string) {
  if (caller.kind === 'user' && !(await organizationsGranting(ctx, caller.scope, caller.userId, permission)).tenant) {
    throw ApiError.of('missing_permission', { message: `Changing promoter settings needs ${permission} from a tenant role.`, details: { required_permission: permission } });
  }
}

export async function updateSettings(
  ctx: AppContext,
  caller: OrganizerCaller,
  input: { attribution_window_days?: number; refund_window_days?: number; link_template?: string | null; self_referral?: 'ignore' | 'allow' },
): Promise<PromoterSettings> {
  await requireTenantRole(ctx, caller, 'promoters:write');
  const current = await readSettings(ctx.db, caller.scope);
  const next = {
    attribution_window_days: input.attribution_window_days ?? current.attributionWindowDays,
    refund_window_days: input.refund_window_days ?? current.refundWindowDays,
    link_template: input.link_template === undefined ? current.linkTemplate : input.link_template,
    self_referral: input.self_referral ?? current.selfReferral,
    updated_at: new Date(),
  };
  await ctx.db
    .insertInto('promoter_settings')
    .values({ tenant_id: caller.scope.tenantId, livemode: caller.scope.livemode, ...next })
    .onConflict((oc) => oc.columns(['tenant_id', 'livemode']).doUpdateSet(next))
    .execute();
  return serializeSettings(caller.scope, await readSettings(ctx.db, caller.scope));
}

/** A code's link from the template, or `null`. */
export function linkOf(template: string | null, code: string, target: { type: string; id: string } | null): string | null {
  if (!template) return null;
  const eventId = target?.type === 'event' ? target.id : '';
  const productId = target?.type === 'product' ? target.id : '';
  return template.replaceAll('{code}', encodeURIComponent(code)).replaceAll('{event}', encodeURIComponent(eventId)).replaceAll('{product}', encodeURIComponent(productId));
}
