import { initContract } from '@ts-rest/core';
import { approvalsContract } from './approvals.contract';
import { creatorContract } from './creator.contract';
import { plusContract } from './public.contract';

export * from './capsules.schemas';
export * from './contents.schemas';
export * from './public.schemas';
export * from './creator.contract';
export * from './approvals.contract';
export * from './public.contract';

const c = initContract();

/** Creators: capsule profiles and readiness, content and its review, the public capsule and content reads. */
export const creatorsContract = c.router({
  creator: creatorContract,
  approvals: approvalsContract,
  plus: plusContract,
});
