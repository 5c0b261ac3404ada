import type { RolePlan } from './role-plan';

/**
 * Requests only: stateless, so as many as needed run behind a load balancer (and `SVC_WORKERS` per machine). It
 * sends jobs but works none; what it keeps in memory (page-view counts) it writes itself.
 */
export const apiRole: RolePlan = { role: 'api', migrates: false, serves: 'app', places: ['api'] };
