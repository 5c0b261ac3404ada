// oidc-provider ships no types; the test uses its constructor and `callback()` only.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims: () => Record<string, unknown>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?: (ctx: unknown, id: string) => Account });
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
