import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PayoutState } from '../provider';

/**
 * The product that owns payouts (promoters) settles them when a provider's result comes; payments cannot
 * import it (the dependency points the other way), so it registers here when its module is set up.
 */
export interface PayoutTarget {
  /** Moves a `pending` payout to its end, with its ledger and event; answers whether it moved. */
  payoutSettled(ctx: AppContext, scope: Scope, payoutId: string, state: PayoutState): Promise<boolean>;
  /** Whether a payout still waits for a result through this configuration (it may not be deleted then). */
  pendingOn(db: Executor, scope: Scope, configId: string): Promise<boolean>;
}

let target: PayoutTarget | undefined;

export function registerPayoutTarget(t: PayoutTarget): void {
  target = t;
}

export function payoutTarget(): PayoutTarget {
  if (!target) throw new Error('no product takes payout results: is promoters in the module list?');
  return target;
}

/** The registered target, or none (a server without promoters has no payouts to wait for). */
export const payoutTargetIfAny = (): PayoutTarget | undefined => target;
