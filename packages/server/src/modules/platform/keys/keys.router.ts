import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import * as keys from './keys.service';

const s = initServer();

export const keysRouter = ({ db, credentials }: AppContext) =>
  s.router(contract.keys, {
    list: async ({ query, req }) => {
      const { scope } = actorOf(req);
      const page = await keys.listKeys(db, scope, query);
      return { status: 200, body: { ...page, data: await keys.expandKeys(db, scope, page.data, query.expand) } };
    },
    create: async ({ body, req }) => ({ status: 201, body: { data: await keys.createKey(db, actorOf(req), body) } }),
    retrieve: async ({ params, query, req }) => {
      const { scope } = actorOf(req);
      await keys.checkKeyExpand(db, scope, query.expand);
      const [key] = await keys.expandKeys(db, scope, [await keys.getKey(db, scope, params.id)], query.expand);
      return { status: 200, body: { data: key! } };
    },
    retrieveByExternalId: async ({ params, query, req }) => {
      const { scope } = actorOf(req);
      await keys.checkKeyExpand(db, scope, query.expand);
      const [key] = await keys.expandKeys(db, scope, [await keys.getKeyByExternalId(db, scope, params.external_id)], query.expand);
      return { status: 200, body: { data: key! } };
    },
    // This process drops the old key before answering; others hear of it by NOTIFY.
    revoke: async ({ params, req }) => {
      const key = await keys.revokeKey(db, actorOf(req), params.id);
      credentials.forget({ keyId: params.id });
      return { status: 200, body: { data: key } };
    },
    roll: async ({ params, body, req }) => {
      const key = await keys.rollKey(db, actorOf(req), params.id, body?.expires_in_seconds);
      credentials.forget({ keyId: params.id });
      return { status: 200, body: { data: key } };
    },
  });
