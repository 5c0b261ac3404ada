import { initContract } from '@ts-rest/core';
import { customerTokenKeysContract } from './customer-token-keys.contract';
import { accessChecksContract, entitlementsContract } from './entitlements.contract';
import { accessSessionsContract } from './sessions.contract';

export * from './access-limits';
export * from './entitlements.schemas';
export * from './entitlements.contract';
export * from './sessions.schemas';
export * from './sessions.contract';
export * from './customer-token-keys.contract';

const c = initContract();

/** Access: entitlements and checks (server only), sessions (servers and browsers), customer token keys (secret key only). */
export const accessContract = c.router({
  entitlements: entitlementsContract,
  checks: accessChecksContract,
  sessions: accessSessionsContract,
  customerTokenKeys: customerTokenKeysContract,
});
