import { initContract } from '@ts-rest/core';
import { platformContract } from './platform/platform.contract';
import { keysContract } from './platform/keys.contract';
import { operatorContract } from './platform/operator.contract';

const c = initContract();

/** The whole API. Each product adds its router here. */
export const contract = c.router({
  platform: platformContract,
  keys: keysContract,
  operator: operatorContract,
});
export type Contract = typeof contract;
