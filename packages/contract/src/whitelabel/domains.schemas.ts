import { z } from 'zod';
import { MetadataSchema } from '../common/metadata';

export const DOMAIN_SERVES = ['checkout', 'capsule', 'playback'] as const;
export type DomainFamily = (typeof DOMAIN_SERVES)[number];
export const DOMAIN_STATUSES = ['pending_verification', 'verified', 'active', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export const DOMAIN_FAILURE_REASONS = ['txt_not_found', 'not_routed', 'txt_removed'] as const;

export const DomainSchema = z
  .object({
    id: z.string().describe('Starts `dom_`.'),
    object: z.literal('domain'),
    livemode: z.boolean(),
    hostname: z.string().describe('Lower case, IDNA (punycode) form.'),
    organization: z.string().nullable().describe('`null` for a tenant-wide domain.'),
    serves: z.array(z.enum(DOMAIN_SERVES)),
    status: z.enum(DOMAIN_STATUSES),
    verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
    dns_target: z.string().describe('Where to point a CNAME (or A/AAAA) record: the operator\'s configured host.'),
    failure_reason: z.enum(DOMAIN_FAILURE_REASONS).nullable(),
    trusted_origin: z.boolean().describe('Whether entitlements\' `allowed_domains` also admit this host once it is active.'),
    verified_at: z.string().nullable(),
    activated_at: z.string().nullable(),
    failed_at: z.string().nullable(),
    last_checked_at: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'Domain' });
export type Domain = z.infer<typeof DomainSchema>;

const ServesSchema = z.array(z.enum(DOMAIN_SERVES)).min(1).max(3);

export const CreateDomainSchema = z
  .object({
    hostname: z.string().min(1).max(300).describe('Normalised: lower case, IDNA. IP addresses, wildcards and the deployment\'s own host are refused.'),
    organization: z.string().max(255).nullable().optional(),
    serves: ServesSchema.optional().describe('Default `["checkout", "capsule"]`; `playback` on tenant-wide domains only.'),
    trusted_origin: z.boolean().optional(),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateDomainRequest' });

export const UpdateDomainSchema = z
  .object({ serves: ServesSchema.optional(), trusted_origin: z.boolean().optional(), metadata: MetadataSchema.optional() })
  .strict()
  .meta({ id: 'UpdateDomainRequest' });

export const SimulateDomainSchema = z.object({ outcome: z.enum(['verified', 'active', 'failed']) }).strict().meta({ id: 'SimulateDomainRequest' });
