import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Role } from './roles';

/** Where a load balancer and an orchestrator ask; outside `/v1`, without credentials, in every role. */
export const HEALTH_PATHS = { live: '/health/live', ready: '/health/ready' } as const;

export type Readiness = 'starting' | 'ready' | 'draining';

/**
 * Answers the two checks, or returns false for any other path. Liveness: the process answers (restart it if
 * not). Readiness: it takes new work; 503 while it starts and while it drains, so a balancer sends elsewhere.
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse, role: Role, readiness: () => Readiness): boolean {
  const path = req.url?.split('?')[0];
  if (path !== HEALTH_PATHS.live && path !== HEALTH_PATHS.ready) return false;
  const state = readiness();
  const ok = path === HEALTH_PATHS.live || state === 'ready';
  const body = JSON.stringify(path === HEALTH_PATHS.live ? { status: 'alive', role, pid: process.pid } : { status: state, role, pid: process.pid });
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
  return true;
}
