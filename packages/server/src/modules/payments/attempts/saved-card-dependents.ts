import type { Scope } from '../../../core/scope';
import { scoped } from '../../../core/scope';
import type { Executor } from '../../../db/database';

/**
 * How many objects of another product will still charge a card kept through a configuration (fanbases: the
 * automatically renewing subscriptions), so that it is not deleted under them. Payments cannot import that
 * product (the dependency points the other way): it registers the count here when its module is set up.
 */
export type SavedCardDependents = (db: Executor, scope: Scope, configId: string) => Promise<number>;

let counter: SavedCardDependents | undefined;

export function registerSavedCardDependents(count: SavedCardDependents): void {
  counter = count;
}

/** Zero on a server without such a product. */
export const savedCardDependents = (db: Executor, scope: Scope, configId: string): Promise<number> => (counter ? counter(db, scope, configId) : Promise.resolve(0));

/** The payments whose card was kept through a configuration, as a subquery of their ids for the dependents' count. */
export const keptCardPayments = (db: Executor, scope: Scope, configId: string) =>
  scoped(db, scope).selectFrom('payments').select('id').where('provider_config_id', '=', configId).where('saved_method_sealed', 'is not', null);
