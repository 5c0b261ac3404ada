import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { getRequestLog, listRequestLogs } from './request-logs.service';

const s = initServer();

export const requestLogsRouter = ({ db, config }: AppContext) =>
  s.router(contract.requestLogs, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await listRequestLogs(db, actorOf(req).scope, config.SVC_REQUEST_LOG_RETENTION_DAYS, query),
    }),
    retrieve: async ({ params, req }) => ({
      status: 200,
      body: { data: await getRequestLog(db, actorOf(req).scope, config.SVC_REQUEST_LOG_RETENTION_DAYS, params.id) },
    }),
  });
