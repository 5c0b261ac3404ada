import type { JobDefinition } from '../../jobs/queue';
import type { AccessDeps } from './access-deps';
import { expireEntitlementsJob } from './entitlements/expire-entitlements.job';
import { endMissedHeartbeatsJob } from './sessions/end-missed-heartbeats.job';

/** Access's scheduled sweeps: entitlement expiry and missed heartbeats, each every minute. */
export const accessJobs = (deps: AccessDeps): JobDefinition[] => [expireEntitlementsJob(deps), endMissedHeartbeatsJob(deps)];
