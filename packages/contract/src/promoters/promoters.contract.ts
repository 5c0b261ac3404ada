import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { MetadataFilterSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { PromoterTargetReportRowSchema, ReportQuerySchema, ReportRowSchema } from './ledger.schemas';
import {
  AssignmentSchema,
  CreateAssignmentSchema,
  CreatePromoterSchema,
  CreateTrackingCodeSchema,
  PROMOTER_STATUSES,
  PromoterSchema,
  PromoterSettingsSchema,
  TrackingCodeSchema,
  UpdateAssignmentSchema,
  UpdatePromoterSchema,
  UpdatePromoterSettingsSchema,
  UpdateTrackingCodeSchema,
} from './promoters.schemas';

const c = initContract();

const credentials = ['secret', 'restricted', 'user'] as const;
export const promotersRead = access({ auth: 'tenant', credentials, scope: 'promoters:read', permission: 'promoters:read', product: 'promoters' });
export const promotersWrite = access({ auth: 'tenant', credentials, scope: 'promoters:write', permission: 'promoters:write', product: 'promoters' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const promotersContract = c.router(
  {
    retrieveSettings: {
      method: 'GET',
      path: '/v1/promoters/settings',
      summary: 'Retrieve the promoter settings',
      description: 'The environment\'s attribution window, refund window, link template and self-referral rule.',
      responses: { 200: dataOf(PromoterSettingsSchema), ...errors },
      metadata: promotersRead,
    },
    updateSettings: {
      method: 'PATCH',
      path: '/v1/promoters/settings',
      summary: 'Update the promoter settings',
      description:
        '`attribution_window_days` (1–90, default 30), `refund_window_days` (0–90, default 7), `link_template` (an https URL with `{code}` and `{event}` or `{product}`) ' +
        'and `self_referral` (`ignore` or `allow`). Members need the tenant role.',
      body: UpdatePromoterSettingsSchema,
      responses: { 200: dataOf(PromoterSettingsSchema), ...errors, ...errorResponses(422) },
      metadata: promotersWrite,
    },
    report: {
      method: 'GET',
      path: '/v1/promoters/report',
      summary: 'Report sales by promoter',
      description:
        'One row per promoter and currency: `clicks`, attributed `orders`, `items`, `gross` and `net` (covered items after discount), and the commission by status; ' +
        'filter by `organization`, `event`, `product` and the order\'s creation (`from`, `to`). Amounts in minor units. Sorted by net, highest first: the leaderboard.',
      query: ReportQuerySchema,
      responses: { 200: z.object({ data: z.array(ReportRowSchema) }), ...errors, ...errorResponses(404, 422) },
      metadata: promotersRead,
    },
    exportReport: {
      method: 'GET',
      path: '/v1/promoters/report/export',
      summary: 'Export the promoter report as CSV',
      description: 'The rows of `GET /v1/promoters/report`, as `text/csv` with a header line.',
      query: ReportQuerySchema,
      responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }), ...errors, ...errorResponses(404, 422) },
      metadata: promotersRead,
    },
    create: {
      method: 'POST',
      path: '/v1/promoters',
      summary: 'Invite a promoter',
      description:
        'A person or organization selling an organization\'s events and products for a commission. A promoter signs in as its `customer`; ' +
        'when none is given, the first sign-in with the verified `email` or `phone` links it.',
      body: CreatePromoterSchema,
      responses: { 201: dataOf(PromoterSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: promotersWrite,
    },
    list: {
      method: 'GET',
      path: '/v1/promoters',
      summary: 'List promoters',
      description: 'Newest first; filter by `organization`, `status`, `customer` and `metadata[key]`.',
      query: CursorPageQuerySchema.extend({
        organization: z.string().max(255).optional(),
        status: z.enum(PROMOTER_STATUSES).optional(),
        customer: z.string().max(255).optional(),
        metadata: MetadataFilterSchema,
      }),
      responses: { 200: cursorListOf(PromoterSchema), ...errors, ...errorResponses(422) },
      metadata: promotersRead,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/promoters/external/:external_id',
      summary: 'Retrieve a promoter by external id',
      description: 'The promoter whose `external_id` this is.',
      pathParams: z.object({ external_id: z.string().max(255) }),
      responses: { 200: dataOf(PromoterSchema), ...errors, ...errorResponses(404) },
      metadata: promotersRead,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/promoters/:id',
      summary: 'Retrieve a promoter',
      description: 'One promoter with its `balances`.',
      pathParams: IdParams,
      responses: { 200: dataOf(PromoterSchema), ...errors, ...errorResponses(404) },
      metadata: promotersRead,
    },
    promoterReport: {
      method: 'GET',
      path: '/v1/promoters/:id/report',
      summary: 'Report one promoter\'s sales by target',
      description: 'One row per event or product and currency, with the same figures as the report.',
      pathParams: IdParams,
      query: ReportQuerySchema.pick({ from: true, to: true }),
      responses: { 200: z.object({ data: z.array(PromoterTargetReportRowSchema) }), ...errors, ...errorResponses(404, 422) },
      metadata: promotersRead,
    },
    update: {
      method: 'PATCH',
      path: '/v1/promoters/:id',
      summary: 'Update a promoter',
      description: 'Any field but `organization`. `status: disabled` stops its codes attributing; its entries still approve and can be paid.',
      pathParams: IdParams,
      body: UpdatePromoterSchema,
      responses: { 200: dataOf(PromoterSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: promotersWrite,
    },
    createAssignment: {
      method: 'POST',
      path: '/v1/promoters/:id/assignments',
      summary: 'Assign a promoter',
      description:
        'To an event (optionally limited to `ticket_type_ids`), a product, or the whole organization, with a commission rule. ' +
        'One active assignment per target (`409 assignment_exists`); the target must be the promoter\'s organization\'s (`422`).',
      pathParams: IdParams,
      body: CreateAssignmentSchema,
      responses: { 201: dataOf(AssignmentSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: promotersWrite,
    },
    listAssignments: {
      method: 'GET',
      path: '/v1/promoters/:id/assignments',
      summary: 'List a promoter\'s assignments',
      description: 'Newest first.',
      pathParams: IdParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(AssignmentSchema), ...errors, ...errorResponses(404, 422) },
      metadata: promotersRead,
    },
    updateAssignment: {
      method: 'PATCH',
      path: '/v1/promoters/:id/assignments/:assignment',
      summary: 'Update an assignment',
      description: 'Changes the `commission` (for orders paid from now on), `ticket_type_ids`, or pauses and ends it (`active: false`).',
      pathParams: z.object({ id: z.string().max(255), assignment: z.string().max(255) }),
      body: UpdateAssignmentSchema,
      responses: { 200: dataOf(AssignmentSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: promotersWrite,
    },
    createTrackingCode: {
      method: 'POST',
      path: '/v1/promoters/:id/tracking_codes',
      summary: 'Create a tracking code',
      description: 'Sent as `ref` (`?ref=CODE` on the event page, or in the booking body). Unique per environment without case (`409 tracking_code_taken`).',
      pathParams: IdParams,
      body: CreateTrackingCodeSchema,
      responses: { 201: dataOf(TrackingCodeSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: promotersWrite,
    },
    listTrackingCodes: {
      method: 'GET',
      path: '/v1/promoters/:id/tracking_codes',
      summary: 'List a promoter\'s tracking codes',
      description: 'Newest first, with `clicks`, `orders` and `url`.',
      pathParams: IdParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(TrackingCodeSchema), ...errors, ...errorResponses(404, 422) },
      metadata: promotersRead,
    },
    updateTrackingCode: {
      method: 'PATCH',
      path: '/v1/promoters/:id/tracking_codes/:code_id',
      summary: 'Switch a tracking code on or off',
      description: 'An inactive code is ignored at booking; the sale goes on without attribution.',
      pathParams: z.object({ id: z.string().max(255), code_id: z.string().max(255) }),
      body: UpdateTrackingCodeSchema,
      responses: { 200: dataOf(TrackingCodeSchema), ...errors, ...errorResponses(404, 422) },
      metadata: promotersWrite,
    },
  },
  { strictStatusCodes: true },
);
