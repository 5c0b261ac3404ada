import type { AppContext } from '../../../core/context';
import type { Executor } from '../../../db/database';

/** The email addresses a role names in a tenant (`tenant_owners`: the team's active owners). */
export type RecipientResolver = (db: Executor, tenantId: string) => Promise<string[]>;

const PART = 'messaging.recipient-roles';

/**
 * Who the role-addressed notices of `email_outbox` go to. The module that knows the people (identity)
 * registers each role at its setup; messaging, which must not depend on it, only asks.
 */
export function recipientRoles(ctx: Pick<AppContext, 'parts'>): Map<string, RecipientResolver> {
  if (!ctx.parts.has(PART)) ctx.parts.set(PART, new Map<string, RecipientResolver>());
  return ctx.parts.get(PART) as Map<string, RecipientResolver>;
}
