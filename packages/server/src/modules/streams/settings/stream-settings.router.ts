import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { actorOf } from '../../../core/principal';
import type { ProviderConfigDeps } from '../provider-configs/provider-configs.service';
import { retrieveStreamSettings, updateStreamSettings } from './stream-settings.service';

const s = initServer();

export const streamSettingsRouter = (deps: ProviderConfigDeps) =>
  s.router(contract.streams.settings, {
    retrieve: async ({ req }) => ({ status: 200, body: { data: await retrieveStreamSettings(deps, actorOf(req).scope) } }),
    update: async ({ body, req }) => ({ status: 200, body: { data: await updateStreamSettings(deps, actorOf(req).scope, body) } }),
  });
