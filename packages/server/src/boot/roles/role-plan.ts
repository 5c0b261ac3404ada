import type { WorkPlace } from '../../jobs/job-definition';
import type { Config } from '../config';

export type Role = Config['SVC_ROLE'];

/** What a process of one role runs: one build, chosen by `SVC_ROLE`. */
export interface RolePlan {
  role: Role;
  /** Migrates the database on start; the other roles refuse an unmigrated one (`svc migrate` is its own step). */
  migrates: boolean;
  /** `app`: the whole API; `health`: only the liveness and readiness checks. */
  serves: 'app' | 'health';
  /** The background work it runs: jobs by their `runsIn`, module workers by theirs. */
  places: readonly WorkPlace[];
}
