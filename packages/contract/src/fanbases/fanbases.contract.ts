import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import {
  AddMemberSchema,
  CreateFanbaseSchema,
  CreateTierSchema,
  ExpandMembershipQuerySchema,
  ExportMembersQuerySchema,
  FanbaseSchema,
  ListFanbasesQuerySchema,
  ListMembersQuerySchema,
  FanbaseMembershipSchema,
  MembershipTierSchema,
  TIER_STATUSES,
  UpdateFanbaseSchema,
  UpdateTierSchema,
} from './fanbases.schemas';

const c = initContract();

/** Organizer routes: a secret key, a restricted key with `fanbases:*`, or a member whose role in the organization grants it. */
export const fanbasesRoute = (level: 'read' | 'write') =>
  access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: `fanbases:${level}`, permission: `fanbases:${level}`, product: 'fanbases' });
const read = fanbasesRoute('read');
const write = fanbasesRoute('write');
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const TierParams = z.object({ id: z.string().max(255), tier: z.string().max(255) });
const MemberParams = z.object({ id: z.string().max(255), membership: z.string().max(255) });

export const fanbasesContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/fanbases',
      summary: 'Create a fanbase',
      description: "An organization's community; one per organization (`409 fanbase_exists`). `currency` defaults to the organization's.",
      body: CreateFanbaseSchema,
      responses: { 201: dataOf(FanbaseSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/fanbases',
      summary: 'List fanbases',
      description: 'Newest first; filter by `organization`, `status` and `metadata[key]=value`. A member sees the fanbases of organizations where their role grants `fanbases:read`.',
      query: ListFanbasesQuerySchema,
      responses: { 200: cursorListOf(FanbaseSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/fanbases/external/:external_id',
      summary: 'Retrieve a fanbase by external id',
      description: 'The fanbase whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(FanbaseSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/fanbases/:id',
      summary: 'Retrieve a fanbase',
      description: 'One fanbase, with its member and subscriber counts.',
      pathParams: IdParams,
      responses: { 200: dataOf(FanbaseSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/fanbases/:id',
      summary: 'Update a fanbase',
      description: 'Changes the fields given. `archived` stops joins and new subscriptions; running subscriptions continue.',
      pathParams: IdParams,
      body: UpdateFanbaseSchema,
      responses: { 200: dataOf(FanbaseSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    createTier: {
      method: 'POST',
      path: '/v1/fanbases/:id/tiers',
      summary: 'Create a membership tier',
      description:
        'Free (`price: 0`, no `interval`) or paid by `month`, `year` or `one_time`, in the fanbase\'s currency. At most one published free tier (`409 free_tier_exists`).',
      pathParams: IdParams,
      body: CreateTierSchema,
      responses: { 201: dataOf(MembershipTierSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    listTiers: {
      method: 'GET',
      path: '/v1/fanbases/:id/tiers',
      summary: 'List membership tiers',
      description: 'Newest first; filter by `status`. Fans see the published tiers by `position` (`GET /v1/public/fanbases/{fanbase}`).',
      pathParams: IdParams,
      query: CursorPageQuerySchema.extend({ status: z.enum(TIER_STATUSES).optional() }),
      responses: { 200: cursorListOf(MembershipTierSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    retrieveTier: {
      method: 'GET',
      path: '/v1/fanbases/:id/tiers/:tier',
      summary: 'Retrieve a membership tier',
      description: 'One tier with its member count.',
      pathParams: TierParams,
      responses: { 200: dataOf(MembershipTierSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    updateTier: {
      method: 'PATCH',
      path: '/v1/fanbases/:id/tiers/:tier',
      summary: 'Update a membership tier',
      description:
        'A `price` change applies to new subscriptions only. Once a tier has had a subscription its `interval` is fixed (`422 validation_failed`). ' +
        'A change of `grants` or `limits` reaches current holders through a job. `archived`: no new subscriptions; existing ones continue and renew.',
      pathParams: TierParams,
      body: UpdateTierSchema,
      responses: { 200: dataOf(MembershipTierSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    listMembers: {
      method: 'GET',
      path: '/v1/fanbases/:id/members',
      summary: 'List members',
      description: 'Newest first; filter by `status`, `tier`, `source`, `subscription_status`, `search` (email, phone or name) and metadata; `expand[]=customer`.',
      pathParams: IdParams,
      query: ListMembersQuerySchema,
      responses: { 200: cursorListOf(FanbaseMembershipSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    exportMembers: {
      method: 'GET',
      path: '/v1/fanbases/:id/members/export',
      summary: 'Export members',
      description: 'A CSV of every member matching the list\'s filters, with the customer\'s contact and the subscription\'s status.',
      pathParams: IdParams,
      query: ExportMembersQuerySchema,
      responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    retrieveMember: {
      method: 'GET',
      path: '/v1/fanbases/:id/members/:membership',
      summary: 'Retrieve a member',
      description: 'One membership; `expand[]=customer`.',
      pathParams: MemberParams,
      query: ExpandMembershipQuerySchema,
      responses: { 200: dataOf(FanbaseMembershipSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    addMember: {
      method: 'POST',
      path: '/v1/fanbases/:id/members',
      summary: 'Add a comp member',
      description:
        'Adds the customer as a member with `source: comp`; with a `tier`, they get its grants (entitlements with source `comp`) until `ends_at`, or without end. ' +
        'A customer already a member is made a comp member of that tier.',
      pathParams: IdParams,
      body: AddMemberSchema,
      responses: { 201: dataOf(FanbaseMembershipSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    removeMember: {
      method: 'DELETE',
      path: '/v1/fanbases/:id/members/:membership',
      summary: 'Remove a member',
      description: 'The membership becomes `left` and its entitlements are revoked; a live subscription is cancelled now, without refund.',
      pathParams: MemberParams,
      body: c.noBody(),
      responses: { 200: dataOf(FanbaseMembershipSchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
