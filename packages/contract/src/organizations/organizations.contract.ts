import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { EmailSchema, PhoneSchema } from '../identity/session.schemas';
import { ORGANIZATION_ROLES, TENANT_ROLES } from '../identity/permissions';

const c = initContract();

export const ORGANIZATION_KINDS = ['brand', 'venue', 'creator'] as const;

export const OrganizationSchema = z
  .object({
    id: z.string().describe('Starts `org_`.'),
    object: z.literal('organization'),
    livemode: z.boolean(),
    name: z.string(),
    handle: z.string(),
    kind: z.enum(ORGANIZATION_KINDS),
    timezone: z.string(),
    currency: z.string(),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Organization' });

export const MemberSchema = z
  .object({
    id: z.string().describe('Starts `mem_`.'),
    object: z.literal('member'),
    organization: z.string().nullable().describe('`null` for tenant staff.'),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    person: z.string().nullable().describe('The `usr_` id once they have signed in.'),
    role: z.string(),
    status: z.enum(['invited', 'active']).describe('`invited` until the person first signs in to the tenant.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Member' });

const HandleSchema = z.string().regex(/^[a-z0-9_.]{3,30}$/, 'A handle is 3 to 30 of a-z, 0-9, `_` and `.`.');
const TimezoneSchema = z.string().max(64).refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'An IANA time zone, e.g. Africa/Nairobi.');
const CurrencySchema = z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code, e.g. KES.');

const tenantRoute = (permission: string, scope: 'platform:*') =>
  access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope, permission });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const MemberParams = z.object({ id: z.string().max(255), member: z.string().max(255) });
const who = { email: EmailSchema.optional(), phone: PhoneSchema.optional() };

export const organizationsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/organizations',
      summary: 'Create an organization',
      description: 'A brand, venue or creator that owns product resources. `timezone` defaults to Africa/Nairobi, `currency` to KES.',
      body: z
        .object({
          name: z.string().min(1).max(200),
          handle: HandleSchema,
          kind: z.enum(ORGANIZATION_KINDS),
          timezone: TimezoneSchema.optional(),
          currency: CurrencySchema.optional(),
          external_id: ExternalIdSchema.optional(),
          metadata: MetadataSchema.optional(),
        })
        .meta({ id: 'CreateOrganizationRequest' }),
      responses: { 201: dataOf(OrganizationSchema), ...errors, ...errorResponses(409, 422) },
      metadata: tenantRoute('organizations:write', 'platform:*'),
    },
    list: {
      method: 'GET',
      path: '/v1/organizations',
      summary: 'List organizations',
      description: 'Newest first.',
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(OrganizationSchema), ...errors, ...errorResponses(422) },
      metadata: tenantRoute('organizations:read', 'platform:*'),
    },
    retrieve: {
      method: 'GET',
      path: '/v1/organizations/:id',
      summary: 'Retrieve an organization',
      description: 'One organization.',
      pathParams: IdParams,
      responses: { 200: dataOf(OrganizationSchema), ...errors, ...errorResponses(404) },
      metadata: tenantRoute('organizations:read', 'platform:*'),
    },
    update: {
      method: 'PATCH',
      path: '/v1/organizations/:id',
      summary: 'Update an organization',
      description: 'Changes the fields given.',
      pathParams: IdParams,
      body: z
        .object({
          name: z.string().min(1).max(200).optional(),
          handle: HandleSchema.optional(),
          kind: z.enum(ORGANIZATION_KINDS).optional(),
          timezone: TimezoneSchema.optional(),
          currency: CurrencySchema.optional(),
          external_id: ExternalIdSchema.nullable().optional(),
          metadata: MetadataSchema.optional(),
        })
        .meta({ id: 'UpdateOrganizationRequest' }),
      responses: { 200: dataOf(OrganizationSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: tenantRoute('organizations:write', 'platform:*'),
    },
    createStaffMember: {
      method: 'POST',
      path: '/v1/members',
      summary: 'Invite a staff member',
      description: 'Tenant staff by email or phone; an invitation goes out, and the member is `invited` until the person first signs in.',
      body: z.object({ ...who, role: z.enum(TENANT_ROLES) }).meta({ id: 'CreateStaffMemberRequest' }),
      responses: { 201: dataOf(MemberSchema), ...errors, ...errorResponses(409, 422) },
      metadata: tenantRoute('members:write', 'platform:*'),
    },
    listStaffMembers: {
      method: 'GET',
      path: '/v1/members',
      summary: 'List staff members',
      description: 'Newest first.',
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(MemberSchema), ...errors, ...errorResponses(422) },
      metadata: tenantRoute('members:read', 'platform:*'),
    },
    updateStaffMember: {
      method: 'PATCH',
      path: '/v1/members/:id',
      summary: 'Change a staff member\'s role',
      description: 'The last owner cannot be demoted: `409 last_owner`.',
      pathParams: IdParams,
      body: z.object({ role: z.enum(TENANT_ROLES) }).meta({ id: 'UpdateStaffMemberRequest' }),
      responses: { 200: dataOf(MemberSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: tenantRoute('members:write', 'platform:*'),
    },
    deleteStaffMember: {
      method: 'DELETE',
      path: '/v1/members/:id',
      summary: 'Remove a staff member',
      description: 'The last owner cannot leave: `409 last_owner`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(MemberSchema.extend({ deleted: z.literal(true) })), ...errors, ...errorResponses(404, 409) },
      metadata: tenantRoute('members:write', 'platform:*'),
    },
    createMember: {
      method: 'POST',
      path: '/v1/organizations/:id/members',
      summary: 'Invite an organization member',
      description:
        'A member of the organization by email or phone, invited until the person first signs in. Signed in, the tenant role or the ' +
        'role in this organization must grant `organization_members:write` (an organization owner or admin manages its own members).',
      pathParams: IdParams,
      body: z.object({ ...who, role: z.enum(ORGANIZATION_ROLES) }).meta({ id: 'CreateOrganizationMemberRequest' }),
      responses: { 201: dataOf(MemberSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: tenantRoute('organization_members:write', 'platform:*'),
    },
    listMembers: {
      method: 'GET',
      path: '/v1/organizations/:id/members',
      summary: 'List organization members',
      description: 'Newest first.',
      pathParams: IdParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(MemberSchema), ...errors, ...errorResponses(404, 422) },
      metadata: tenantRoute('organization_members:read', 'platform:*'),
    },
    updateMember: {
      method: 'PATCH',
      path: '/v1/organizations/:id/members/:member',
      summary: 'Change an organization member\'s role',
      description: 'The last owner cannot be demoted: `409 last_owner`.',
      pathParams: MemberParams,
      body: z.object({ role: z.enum(ORGANIZATION_ROLES) }).meta({ id: 'UpdateOrganizationMemberRequest' }),
      responses: { 200: dataOf(MemberSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: tenantRoute('organization_members:write', 'platform:*'),
    },
    deleteMember: {
      method: 'DELETE',
      path: '/v1/organizations/:id/members/:member',
      summary: 'Remove an organization member',
      description: 'The last owner cannot leave: `409 last_owner`.',
      pathParams: MemberParams,
      body: c.noBody(),
      responses: { 200: dataOf(MemberSchema.extend({ deleted: z.literal(true) })), ...errors, ...errorResponses(404, 409) },
      metadata: tenantRoute('organization_members:write', 'platform:*'),
    },
  },
  { strictStatusCodes: true },
);
