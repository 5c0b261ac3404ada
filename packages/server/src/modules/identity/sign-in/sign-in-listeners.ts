import type { Transaction } from 'kysely';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';

/** A person who just signed in to a tenant's environment: their customer and the email or phone they proved. */
export interface SignedInPerson {
  customerId: string;
  kind: 'phone' | 'email';
  value: string;
}

/** What another module does, in the sign-in's transaction, for the person who signed in (ticketing: their guest orders). */
export type SignInListener = (trx: Transaction<DB>, scope: Scope, person: SignedInPerson) => Promise<void>;

const listeners = new Set<SignInListener>();

export function registerSignInListener(listener: SignInListener): void {
  listeners.add(listener);
}

export async function customerSignedIn(trx: Transaction<DB>, scope: Scope, person: SignedInPerson): Promise<void> {
  for (const listener of listeners) await listener(trx, scope, person);
}
