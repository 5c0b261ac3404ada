import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { ApiError } from '../../core/errors';
import { readBuildInfo } from './build-info';

const s = initServer();

export const platformRouter = (ctx: AppContext) =>
  s.router(contract.platform, {
    buildInfo: async () => ({ status: 200, body: await readBuildInfo() }),
    status: async () => {
      if (ctx.state.shuttingDown) throw ApiError.of('service_unavailable', { message: 'The server is shutting down.' });
      return { status: 200, body: { status: 'ok' as const } };
    },
  });
