import { initContract } from '@ts-rest/core';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf } from '../common/pagination';
import { z } from 'zod';
import { CommissionSchema, PayoutSchema, PromoterProfileSchema, PromoterSaleSchema } from './ledger.schemas';
import { TrackingCodeSchema } from './promoters.schemas';

const c = initContract();

/** A signed-in customer: an identity access token with the tenant header, or a publishable key with a customer token. */
const promoter = access({ auth: 'tenant', credentials: ['user', 'publishable'], scope: 'promoters:read', product: 'promoters', customerToken: 'required' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const Filter = CursorPageQuerySchema.extend({ promoter: z.string().max(255).optional().describe('One of the caller\'s promoters (`prm_`).') });

/** What a promoter sees of their own figures: only the promoters linked to their customer, never buyers' contact details. */
export const promoterViewContract = c.router(
  {
    listProfiles: {
      method: 'GET',
      path: '/v1/promoter/profiles',
      summary: 'List my promoter profiles',
      description: 'The promoters linked to the signed-in customer (one per organization they sell for), with the organization and `balances`.',
      responses: { 200: z.object({ data: z.array(PromoterProfileSchema) }), ...errors },
      metadata: promoter,
    },
    listTrackingCodes: {
      method: 'GET',
      path: '/v1/promoter/tracking_codes',
      summary: 'List my tracking codes',
      description: 'With `clicks`, `orders` and `url`.',
      query: Filter,
      responses: { 200: cursorListOf(TrackingCodeSchema), ...errors, ...errorResponses(422) },
      metadata: promoter,
    },
    listSales: {
      method: 'GET',
      path: '/v1/promoter/sales',
      summary: 'List my attributed sales',
      description: 'Orders attributed to me and paid, newest first: the order\'s code and status, the covered items, net amount and commission; no buyer details.',
      query: Filter,
      responses: { 200: cursorListOf(PromoterSaleSchema), ...errors, ...errorResponses(422) },
      metadata: promoter,
    },
    listCommissions: {
      method: 'GET',
      path: '/v1/promoter/commissions',
      summary: 'List my commission entries',
      description: 'My ledger, newest first.',
      query: Filter,
      responses: { 200: cursorListOf(CommissionSchema), ...errors, ...errorResponses(422) },
      metadata: promoter,
    },
    listPayouts: {
      method: 'GET',
      path: '/v1/promoter/payouts',
      summary: 'List my payouts',
      description: 'Newest first.',
      query: Filter,
      responses: { 200: cursorListOf(PayoutSchema), ...errors, ...errorResponses(422) },
      metadata: promoter,
    },
  },
  { strictStatusCodes: true },
);
