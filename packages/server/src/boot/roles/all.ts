import type { RolePlan } from './role-plan';

/** Everything in one process, migrating on start: one machine, as `pnpm start` runs it. */
export const allRole: RolePlan = { role: 'all', migrates: true, serves: 'app', places: ['api', 'worker', 'media'] };
