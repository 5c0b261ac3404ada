import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { approvalsRouter } from './approvals/approvals.router';
import { creatorRouter } from './capsules/creator.router';
import { plusRouter } from './public/plus.router';

const s = initServer();

export const creatorsRouter = (ctx: AppContext) =>
  s.router(contract.creators, { creator: creatorRouter(ctx), approvals: approvalsRouter(ctx), plus: plusRouter(ctx) });
