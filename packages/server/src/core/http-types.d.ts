import type { ServedDomain } from './branding';
import type { Principal } from './principal';

declare global {
  namespace Express {
    interface Request {
      /** `req_…`, also sent back in the `Request-Id` header. */
      id: string;
      principal?: Principal;
      /** The `Idempotency-Key` this request owns, for event envelopes. */
      idempotencyKey?: string;
      /** The active custom domain the request came on (its `Host`), if any. */
      domain?: ServedDomain;
    }
  }
}
export {};
