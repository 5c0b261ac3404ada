import type { AppContext } from '../../core/context';
import { customerTokenKeysRouter } from './customer-token-keys/customer-token-keys.router';
import { accessChecksRouter, entitlementsRouter } from './entitlements/entitlements.router';
import { accessSessionsRouter } from './sessions/sessions.router';

/** Every Access route: entitlements and checks, sessions (with `POST /v1/streams/playback_tokens`), customer token keys. */
export const accessRouter = (ctx: AppContext) => ({
  entitlements: entitlementsRouter(ctx),
  checks: accessChecksRouter(ctx),
  sessions: accessSessionsRouter(ctx),
  customerTokenKeys: customerTokenKeysRouter(ctx),
});
