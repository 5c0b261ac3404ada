import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { actorOf } from '../../../core/principal';
import type { StreamsDeps } from '../streams-deps';
import { createSigningKey, listSigningKeys, revokeSigningKey } from './signing-keys.service';

const s = initServer();

export const signingKeysRouter = (deps: StreamsDeps) =>
  s.router(contract.streams.signingKeys, {
    create: async ({ req }) => ({ status: 201, body: { data: await createSigningKey(deps, actorOf(req).scope) } }),
    list: async ({ query, req }) => ({ status: 200, body: await listSigningKeys(deps, actorOf(req).scope, query) }),
    revoke: async ({ params, req }) => ({ status: 200, body: { data: await revokeSigningKey(deps, actorOf(req).scope, params.id) } }),
  });
