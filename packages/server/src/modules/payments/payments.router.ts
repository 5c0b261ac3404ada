import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { actorOf } from '../../core/principal';
import { listPaymentObjects, retrievePayment, settlePaymentForTest } from './attempts/payments.service';
import { createProviderConfig, deleteProviderConfig, listProviderConfigs, retrieveProviderConfig, updateProviderConfig } from './provider-configs/provider-configs.service';
import { listRefundObjects, retrieveRefund } from './refunds/refunds.service';
import { settleRefundForTest } from './refunds/settle-refund-for-test';
import { retrieveOrganizationSettings, retrievePaymentSettings, updateOrganizationSettings, updatePaymentSettings } from './settings/payment-settings.service';

const s = initServer();

export const paymentsRouter = (ctx: AppContext) =>
  s.router(contract.payments, {
    providerConfigs: {
      create: async ({ body, req }) => ({ status: 201, body: { data: await createProviderConfig(ctx, actorOf(req).scope, body) } }),
      list: async ({ query, req }) => {
        const { type, organization, status, ...page } = query;
        return { status: 200, body: await listProviderConfigs(ctx, actorOf(req).scope, { type, organization, status }, page) };
      },
      retrieve: async ({ params, req }) => ({ status: 200, body: { data: await retrieveProviderConfig(ctx, actorOf(req).scope, params.id) } }),
      update: async ({ params, body, req }) => ({ status: 200, body: { data: await updateProviderConfig(ctx, actorOf(req).scope, params.id, body) } }),
      delete: async ({ params, req }) => ({ status: 200, body: { data: await deleteProviderConfig(ctx, actorOf(req).scope, params.id) } }),
    },
    settings: {
      retrieve: async ({ req }) => ({ status: 200, body: { data: await retrievePaymentSettings(ctx, actorOf(req).scope) } }),
      update: async ({ body, req }) => ({ status: 200, body: { data: await updatePaymentSettings(ctx, actorOf(req).scope, body) } }),
      retrieveForOrganization: async ({ params, req }) => ({ status: 200, body: { data: await retrieveOrganizationSettings(ctx, actorOf(req).scope, params.id) } }),
      updateForOrganization: async ({ params, body, req }) => ({
        status: 200,
        body: { data: await updateOrganizationSettings(ctx, actorOf(req).scope, params.id, body) },
      }),
    },
    payments: {
      list: async ({ query, req }) => {
        const { order, organization, customer, status, provider, method, late, failure_code, created, ...page } = query;
        const filters = { order, organization, customer, status, provider, method, late, failure_code, created };
        return { status: 200, body: await listPaymentObjects(ctx, actorOf(req).scope, filters, page) };
      },
      retrieve: async ({ params, req }) => ({ status: 200, body: { data: await retrievePayment(ctx, actorOf(req).scope, params.id) } }),
      listRefunds: async ({ query, req }) => {
        const { order, payment, status, source, created, ...page } = query;
        return { status: 200, body: await listRefundObjects(ctx.db, actorOf(req).scope, { order, payment, status, source, created }, page) };
      },
      retrieveRefund: async ({ params, req }) => ({ status: 200, body: { data: await retrieveRefund(ctx, actorOf(req).scope, params.id) } }),
    },
    testHelpers: {
      settlePayment: async ({ params, body, req }) => ({ status: 200, body: { data: await settlePaymentForTest(ctx, actorOf(req).scope, params.id, body) } }),
      settleRefund: async ({ params, body, req }) => ({ status: 200, body: { data: await settleRefundForTest(ctx, actorOf(req).scope, params.id, body?.outcome) } }),
    },
  });
