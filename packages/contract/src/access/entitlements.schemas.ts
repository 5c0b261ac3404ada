import { z } from 'zod';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { ACCESS_LIMITS } from './access-limits';

export const ENTITLEMENT_STATUSES = ['active', 'suspended', 'revoked', 'expired'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

export const ENTITLEMENT_SOURCES = [
  'tenant_grant',
  'payment',
  'comp',
  'subscription',
  'membership_tier',
  'ticket',
  'promotion',
] as const;
export type EntitlementSource = (typeof ENTITLEMENT_SOURCES)[number];

export const RESOURCE_TYPES = ['ls', 'ast'] as const;
export type AccessResourceType = (typeof RESOURCE_TYPES)[number];

export const CONCURRENCY_POLICIES = ['replace_oldest', 'reject_new'] as const;

export const CustomerSchema = z
  .string()
  .min(1)
  .max(ACCESS_LIMITS.customer.maxLength)
  .describe('Your own id for the viewer; equals `sub` of the customer tokens you sign for them.');

export const ContactHashSchema = z
  .string()
  .regex(/^[a-fA-F0-9]{64}$/, 'Must be 64 hexadecimal characters.')
  .describe('Alternative to `customer`: a hash of a verified phone or email, salted with your secret (64 hex characters).');

export const CountryCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'Must be a two-letter country code in capitals, e.g. `KE`.');

export const HostSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9.-]+(:\d{1,5})?$/, 'Must be a host name in lower case, e.g. `watch.example.com`.');

export const ResourceRefSchema = z
  .object({
    type: z.enum(RESOURCE_TYPES).describe('`ls` for a live stream, `ast` for an asset.'),
    id: z.string().min(1).max(255).describe('The live stream (`ls_`) or asset (`ast_`) id.'),
  })
  .meta({ id: 'AccessResource' });

const positiveInt = z.number().int().min(1).max(1_000_000);

export const EntitlementLimitsSchema = z
  .object({
    max_devices: positiveInt.nullable().optional().describe('Distinct `device_id` values that may ever open a session.'),
    max_concurrent_sessions: positiveInt.nullable().optional().describe('Sessions open at the same time.'),
    concurrency_policy: z
      .enum(CONCURRENCY_POLICIES)
      .nullable()
      .optional()
      .describe('At the concurrent limit: `replace_oldest` (default) ends the oldest session, `reject_new` refuses the new one.'),
    max_views: positiveInt.nullable().optional().describe('Sessions the customer may open in all.'),
    allowed_countries: z.array(CountryCodeSchema).min(1).max(250).nullable().optional(),
    allowed_domains: z
      .array(HostSchema)
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .describe('Hosts the player page may run on; exact match (`example.com` does not cover `www.example.com`).'),
  })
  .meta({ id: 'EntitlementLimits' });
export type EntitlementLimitsInput = z.infer<typeof EntitlementLimitsSchema>;

/** Limits as responses show them: every field present, `null` where there is no limit. */
export const EntitlementLimitsResponseSchema = z
  .object({
    max_devices: z.number().int().nullable(),
    max_concurrent_sessions: z.number().int().nullable(),
    concurrency_policy: z.enum(CONCURRENCY_POLICIES),
    max_views: z.number().int().nullable(),
    allowed_countries: z.array(z.string()).nullable(),
    allowed_domains: z.array(z.string()).nullable(),
  })
  .meta({ id: 'EntitlementLimitsResponse' });
export type EntitlementLimits = z.infer<typeof EntitlementLimitsResponseSchema>;

export const EntitlementSchema = z
  .object({
    id: z.string().describe('Starts `ent_`.'),
    object: z.literal('entitlement'),
    livemode: z.boolean(),
    customer: z.string().nullable(),
    contact_hash: z.string().nullable(),
    resource: ResourceRefSchema,
    source: z.enum(ENTITLEMENT_SOURCES),
    source_ref: z.string().nullable(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    limits: EntitlementLimitsResponseSchema,
    status: z
      .enum(ENTITLEMENT_STATUSES)
      .describe('`active` after the grant; `expired` as soon as `ends_at` passes, even before the expiry event is sent.'),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Entitlement' });
export type Entitlement = z.infer<typeof EntitlementSchema>;

const OffsetDateTime = z.iso.datetime({ offset: true });

export const GrantEntitlementSchema = z
  .object({
    customer: CustomerSchema.optional(),
    contact_hash: ContactHashSchema.optional(),
    resource: ResourceRefSchema,
    source: z.enum(ENTITLEMENT_SOURCES).default('tenant_grant'),
    source_ref: z.string().min(1).max(255).optional().describe('The payment, order or grant behind it.'),
    starts_at: OffsetDateTime.optional().describe('With a time-zone offset, e.g. `Z`; omitted: no start limit.'),
    ends_at: OffsetDateTime.optional().describe('With a time-zone offset; omitted: no end.'),
    limits: EntitlementLimitsSchema.optional(),
    external_id: ExternalIdSchema.optional(),
    metadata: MetadataSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.customer === undefined) === (v.contact_hash === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['customer'], message: 'Send exactly one of `customer` and `contact_hash`.' });
    }
    if (v.starts_at && v.ends_at && Date.parse(v.ends_at) <= Date.parse(v.starts_at)) {
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'Must be after `starts_at`.' });
    }
  })
  .meta({ id: 'GrantEntitlementRequest' });
export type GrantEntitlementInput = z.infer<typeof GrantEntitlementSchema>;

/** Who a request is about: a customer id or a contact hash (the spec's `SubjectRequest`). */
export const SubjectSchema = z
  .object({ customer: CustomerSchema.optional(), contact_hash: ContactHashSchema.optional() })
  .meta({ id: 'SubjectRequest' });

export const AccessCheckRequestSchema = z
  .object({
    customer: CustomerSchema.optional(),
    contact_hash: ContactHashSchema.optional(),
    resource: ResourceRefSchema,
    country: CountryCodeSchema.optional().describe('The viewer\'s country, checked against `allowed_countries`.'),
    domain: HostSchema.optional().describe('The host of the player page, checked against `allowed_domains`.'),
  })
  .superRefine((v, ctx) => {
    if ((v.customer === undefined) === (v.contact_hash === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['customer'], message: 'Send exactly one of `customer` and `contact_hash`.' });
    }
  })
  .meta({ id: 'AccessCheckRequest' });

export const ACCESS_DENIAL_REASONS = [
  'no_entitlement',
  'expired',
  'revoked',
  'suspended',
  'not_started',
  'country_not_allowed',
  'domain_not_allowed',
] as const;
export type AccessDenialReason = (typeof ACCESS_DENIAL_REASONS)[number];

export const AccessCheckResultSchema = z
  .object({
    allowed: z.boolean(),
    reason: z.enum(ACCESS_DENIAL_REASONS).nullable().describe('`null` when allowed.'),
    entitlement: EntitlementSchema.nullable().describe('The entitlement the answer is about, or `null` when there is none.'),
  })
  .meta({ id: 'AccessCheckResult' });
export type AccessCheckResult = z.infer<typeof AccessCheckResultSchema>;
