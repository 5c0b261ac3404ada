import type { RolePlan } from './role-plan';

/**
 * The job queue (deliveries, expiries, reconciliation, renewals, retention) and the modules' background work
 * (webhook and message delivery). Its port answers only the health checks.
 */
export const workerRole: RolePlan = { role: 'worker', migrates: false, serves: 'health', places: ['worker'] };
