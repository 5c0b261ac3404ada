import { allRole } from './all';
import { apiRole } from './api';
import { mediaRole } from './media';
import type { Role, RolePlan } from './role-plan';
import { workerRole } from './worker';

export type { Role, RolePlan } from './role-plan';

const PLANS: Record<Role, RolePlan> = { all: allRole, api: apiRole, worker: workerRole, media: mediaRole };

export const planOf = (role: Role): RolePlan => PLANS[role];

/**
 * The plan of one of `all`'s several processes (`SVC_WORKERS` > 1): the first runs everything, the others
 * only requests, so the background work and the media network run once.
 */
export const planOfClusterMember = (role: Role, index: number): RolePlan => (role === 'all' && index > 0 ? { ...apiRole, role: 'all' } : planOf(role));
