import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { actorOf } from '../../../core/principal';
import * as service from './provider-configs.service';
import type { ProviderConfigDeps } from './provider-configs.service';

const s = initServer();

export const providerConfigsRouter = (deps: ProviderConfigDeps) =>
  s.router(contract.streams.providerConfigs, {
    create: async ({ body, req }) => ({ status: 201, body: { data: await service.createProviderConfig(deps, actorOf(req).scope, body) } }),
    list: async ({ query, req }) => ({ status: 200, body: await service.listProviderConfigs(deps, actorOf(req).scope, query) }),
    retrieve: async ({ params, req }) => ({
      status: 200,
      body: { data: await service.retrieveProviderConfig(deps, actorOf(req).scope, params.id) },
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await service.updateProviderConfig(deps, actorOf(req).scope, params.id, body) },
    }),
    delete: async ({ params, req }) => ({ status: 200, body: { data: await service.deleteProviderConfig(deps, actorOf(req).scope, params.id) } }),
  });
