import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { keyPrincipal } from '../../core/principal';
import * as keys from './keys.service';

const s = initServer();

export const keysRouter = ({ db }: AppContext) =>
  s.router(contract.keys, {
    list: async ({ query, req }) => {
      const { scope } = keyPrincipal(req);
      const page = await keys.listKeys(db, scope, query);
      return { status: 200, body: { ...page, data: await keys.expandKeys(db, scope, page.data, query.expand) } };
    },
    create: async ({ body, req }) => ({ status: 201, body: { data: await keys.createKey(db, keyPrincipal(req), body) } }),
    retrieve: async ({ params, query, req }) => {
      const { scope } = keyPrincipal(req);
      const [key] = await keys.expandKeys(db, scope, [await keys.getKey(db, scope, params.id)], query.expand);
      return { status: 200, body: { data: key! } };
    },
    retrieveByExternalId: async ({ params, query, req }) => {
      const { scope } = keyPrincipal(req);
      const [key] = await keys.expandKeys(db, scope, [await keys.getKeyByExternalId(db, scope, params.external_id)], query.expand);
      return { status: 200, body: { data: key! } };
    },
    revoke: async ({ params, req }) => ({
      status: 200,
      body: { data: await keys.revokeKey(db, keyPrincipal(req).scope, params.id) },
    }),
    roll: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await keys.rollKey(db, keyPrincipal(req), params.id, body?.expires_in_seconds) },
    }),
  });
