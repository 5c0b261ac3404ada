import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { keyPrincipal } from '../../../core/principal';
import type { StreamsDeps } from '../streams-deps';
import { createSigningKey, listSigningKeys, revokeSigningKey } from './signing-keys.service';

const s = initServer();

export const signingKeysRouter = (deps: StreamsDeps) =>
  s.router(contract.streams.signingKeys, {
    create: async ({ req }) => ({ status: 201, body: { data: await createSigningKey(deps, keyPrincipal(req).scope) } }),
    list: async ({ query, req }) => ({ status: 200, body: await listSigningKeys(deps, keyPrincipal(req).scope, query) }),
    revoke: async ({ params, req }) => ({ status: 200, body: { data: await revokeSigningKey(deps, keyPrincipal(req).scope, params.id) } }),
  });
