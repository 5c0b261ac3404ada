import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { CommissionSchema, CreatePayoutSchema, PayoutSchema } from './ledger.schemas';
import { COMMISSION_STATUSES, COMMISSION_TYPES, PAYOUT_METHODS, PAYOUT_STATUSES } from './promoters.schemas';
import { promotersRead } from './promoters.contract';

const c = initContract();

const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const payout = access({
  auth: 'tenant',
  credentials: ['secret', 'restricted', 'user'],
  scope: 'promoters:write',
  permission: 'promoters:payout',
  product: 'promoters',
  idempotency: 'required',
});
const testHelper = access({ auth: 'tenant', credentials: ['secret'], scope: 'promoters:write', product: 'promoters', liveMode: false });

export const commissionsContract = c.router(
  {
    listCommissions: {
      method: 'GET',
      path: '/v1/commissions',
      summary: 'List commission entries',
      description:
        'The ledger, newest first: `commission` entries made when an attributed order is paid and `reversal` entries made by its refunds. ' +
        'Filter by `promoter`, `order`, `status`, `type` and `payout`.',
      query: CursorPageQuerySchema.extend({
        promoter: z.string().max(255).optional(),
        order: z.string().max(255).optional(),
        status: z.enum(COMMISSION_STATUSES).optional(),
        type: z.enum(COMMISSION_TYPES).optional(),
        payout: z.string().max(255).optional(),
      }),
      responses: { 200: cursorListOf(CommissionSchema), ...errors, ...errorResponses(422) },
      metadata: promotersRead,
    },
    createPayout: {
      method: 'POST',
      path: '/v1/promoters/:id/payouts',
      summary: 'Pay out a promoter\'s approved balance',
      description:
        'Includes every `approved` entry of the currency not yet in a payout, reversals too. A sum of 0 or less, or losing a race for the same entries, is `409 no_payable_commissions`. ' +
        '`manual` records a payment made elsewhere (`reference`) and is `paid` at once; `mpesa_b2c` sends the money through the organization\'s M-Pesa configuration and is `pending` until Daraja\'s result ' +
        '(`422 payout_method_unavailable` without a configuration with `payouts`, a `+254` phone, or KES). `Idempotency-Key` is required.',
      pathParams: IdParams,
      body: CreatePayoutSchema,
      responses: { 201: dataOf(PayoutSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: payout,
    },
    listPayouts: {
      method: 'GET',
      path: '/v1/payouts',
      summary: 'List payouts',
      description: 'Newest first; filter by `promoter`, `status` and `method`.',
      query: CursorPageQuerySchema.extend({
        promoter: z.string().max(255).optional(),
        status: z.enum(PAYOUT_STATUSES).optional(),
        method: z.enum(PAYOUT_METHODS).optional(),
      }),
      responses: { 200: cursorListOf(PayoutSchema), ...errors, ...errorResponses(422) },
      metadata: promotersRead,
    },
    retrievePayout: {
      method: 'GET',
      path: '/v1/payouts/:id',
      summary: 'Retrieve a payout',
      description: 'One payout; its entries are listed by `GET /v1/commissions?payout=`.',
      pathParams: IdParams,
      responses: { 200: dataOf(PayoutSchema), ...errors, ...errorResponses(404) },
      metadata: promotersRead,
    },
    approveCommission: {
      method: 'POST',
      path: '/v1/test_helpers/commissions/:id/approve',
      summary: 'Approve a test-mode commission now',
      description: 'Sets `available_at` to now and runs the approval for the entry\'s order (an order refunded in full approves nothing).',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(CommissionSchema), ...errors, ...errorResponses(404) },
      metadata: testHelper,
    },
  },
  { strictStatusCodes: true },
);
