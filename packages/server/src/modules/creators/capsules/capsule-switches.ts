import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { findProfile } from './capsules.repository';

/** Whether the creator's capsule lets fans join and subscribe (both off until the creator turns them on). */
export async function capsuleSwitches(db: Executor, scope: Scope, organizationId: string): Promise<{ join_enabled: boolean; subscription_enabled: boolean }> {
  const profile = await findProfile(db, scope, organizationId);
  return { join_enabled: profile?.join_enabled ?? false, subscription_enabled: profile?.subscription_enabled ?? false };
}
