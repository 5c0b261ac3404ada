/**
 * Member roles and the permissions each grants, declared once: route metadata names a permission
 * (`access({..., permission})`) and the server checks a signed-in member's role against these sets.
 */
export const TENANT_ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

export const ORGANIZATION_ROLES = ['owner', 'admin', 'manager', 'finance', 'checkin', 'viewer'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

export const PERMISSIONS = [
  'members:read',
  'members:write',
  'organizations:read',
  'organizations:write',
  'developers:read',
  'developers:write',
  'organization_members:read',
  'organization_members:write',
  'customers:read',
  'customers:write',
  'messages:read',
  'identity:read',
  'identity:write',
  'events:read',
  'events:write',
  'events:checkin',
  'capsules:read',
  'capsules:write',
  'contents:review',
  'branding:read',
  'branding:write',
  'payments:read',
  'payments:write',
  'streams:read',
  'fanbases:read',
  'fanbases:write',
  'commerce:read',
  'commerce:write',
  'promoters:read',
  'promoters:write',
  'promoters:payout',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READS: Permission[] = PERMISSIONS.filter((p) => p.endsWith(':read'));

/** Tenant staff: what each role may do in the tenant. */
export const TENANT_ROLE_PERMISSIONS: Record<TenantRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  developer: [...READS, 'identity:write', 'customers:write', 'developers:write'],
  support: [...READS, 'customers:write', 'contents:review'],
  viewer: READS,
};

/**
 * Organization members: what each role may do within its own organization. A route's permission is met by the
 * tenant role, or by the role in the organization the route names (organization member routes).
 */
export const ORGANIZATION_ROLE_PERMISSIONS: Record<OrganizationRole, readonly Permission[]> = {
  owner: ['organizations:read', 'organization_members:read', 'organization_members:write', 'events:read', 'events:checkin', 'events:write', 'capsules:read', 'capsules:write', 'branding:read', 'branding:write', 'fanbases:read', 'fanbases:write', 'commerce:read', 'commerce:write', 'promoters:read', 'promoters:write', 'promoters:payout'],
  admin: ['organizations:read', 'organization_members:read', 'organization_members:write', 'events:read', 'events:checkin', 'events:write', 'capsules:read', 'capsules:write', 'branding:read', 'branding:write', 'fanbases:read', 'fanbases:write', 'commerce:read', 'commerce:write', 'promoters:read', 'promoters:write', 'promoters:payout'],
  manager: ['organizations:read', 'organization_members:read', 'events:read', 'events:checkin', 'events:write', 'capsules:read', 'capsules:write', 'branding:read', 'fanbases:read', 'fanbases:write', 'commerce:read', 'commerce:write', 'promoters:read', 'promoters:write'],
  finance: ['organizations:read', 'events:read', 'fanbases:read', 'commerce:read', 'promoters:read', 'promoters:payout'],
  checkin: ['organizations:read', 'events:read', 'events:checkin'],
  viewer: ['organizations:read', 'events:read', 'fanbases:read', 'commerce:read'],
};
