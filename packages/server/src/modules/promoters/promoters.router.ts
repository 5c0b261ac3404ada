import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { actorOf } from '../../core/principal';
import * as assignments from './assignments/assignments.service';
import * as promoters from './promoters/promoters.service';
import { checkRange, promoterReport, promotersReport, reportCsv } from './reports/reports.service';
import { readSettings, serializeSettings, updateSettings } from './settings/settings.service';
import * as codes from './tracking-codes/tracking-codes.service';

const s = initServer();

export const promotersRouter = (ctx: AppContext) =>
  s.router(contract.promoters, {
    retrieveSettings: async ({ req }) => {
      const caller = actorOf(req);
      return { status: 200, body: { data: serializeSettings(caller.scope, await readSettings(ctx.db, caller.scope)) } };
    },
    updateSettings: async ({ body, req }) => ({ status: 200, body: { data: await updateSettings(ctx, actorOf(req), body) } }),
    report: async ({ query, req }) => {
      checkRange(query);
      return { status: 200, body: { data: await promotersReport(ctx, actorOf(req), query) } };
    },
    exportReport: async ({ query, req, res }) => {
      checkRange(query);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', 'attachment; filename="promoters-report.csv"');
      return { status: 200, body: reportCsv(await promotersReport(ctx, actorOf(req), query)) };
    },
    create: async ({ body, req }) => ({ status: 201, body: { data: await promoters.createPromoter(ctx, actorOf(req), body) } }),
    list: async ({ query: { organization, status, customer, metadata, ...page }, req }) => ({
      status: 200,
      body: await promoters.listPromoters(ctx, actorOf(req), { organization, status, customer, metadata }, page),
    }),
    retrieveByExternalId: async ({ params, req }) => ({ status: 200, body: { data: await promoters.retrievePromoterByExternalId(ctx, actorOf(req), params.external_id) } }),
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await promoters.retrievePromoter(ctx, actorOf(req), params.id) } }),
    promoterReport: async ({ params, query, req }) => {
      checkRange(query);
      return { status: 200, body: { data: await promoterReport(ctx, actorOf(req), params.id, query) } };
    },
    update: async ({ params, body, req }) => ({ status: 200, body: { data: await promoters.updatePromoter(ctx, actorOf(req), params.id, body) } }),
    createAssignment: async ({ params, body, req }) => ({ status: 201, body: { data: await assignments.createAssignment(ctx, actorOf(req), params.id, body) } }),
    listAssignments: async ({ params, query, req }) => ({ status: 200, body: await assignments.listAssignments(ctx, actorOf(req), params.id, query) }),
    updateAssignment: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await assignments.updateAssignment(ctx, actorOf(req), params.id, params.assignment, body) },
    }),
    createTrackingCode: async ({ params, body, req }) => ({ status: 201, body: { data: await codes.createTrackingCode(ctx, actorOf(req), params.id, body) } }),
    listTrackingCodes: async ({ params, query, req }) => ({ status: 200, body: await codes.listTrackingCodes(ctx, actorOf(req), params.id, query) }),
    updateTrackingCode: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await codes.updateTrackingCode(ctx, actorOf(req), params.id, params.code_id, body.active) },
    }),
  });
