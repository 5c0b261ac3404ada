import type { RouteAccess, TenantCredential } from '../common/access';

/** Every way a caller proves who it is, as the server's authentication reads it (`core/auth` in the server). */
export const securitySchemes = {
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'A secret (`sk_live_`, `sk_test_`) or restricted (`rk_`) key: `Authorization: Bearer <key>`. A restricted key needs the scope the operation names.',
  },
  publishableKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Svc-Publishable-Key',
    description: 'A publishable key (`pk_`), safe in a browser or app; it names the tenant and environment.',
  },
  customerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A customer token (HS256, signed by the tenant\'s server with a customer-token key) beside the publishable key; its `sub` is the customer.',
  },
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A signed-in person\'s identity access token (ES256, issuer `<base URL>/auth/v1`, keys at `/auth/v1/.well-known/jwks.json`). ' +
      'A tenant header sent beside it must name the token\'s tenant.',
  },
  tenantCode: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Tenant-Code',
    description: 'Names the tenant (its code or `ten_` id), live mode, where no key is needed (sign-in). `Svc-Tenant` is read when `X-Tenant-Code` is absent.',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The self-hosted operator\'s token (`SVC_OPERATOR_TOKEN`).',
  },
} as const;

type Requirement = Partial<Record<keyof typeof securitySchemes, string[]>>;

const requirementsOf: Record<TenantCredential, (access: Extract<RouteAccess, { auth: 'tenant' }>) => Requirement> = {
  secret: () => ({ secretKey: [] }),
  restricted: () => ({ secretKey: [] }),
  publishable: (a) => (a.customerToken === 'required' ? { publishableKey: [], customerToken: [] } : { publishableKey: [] }),
  user: () => ({ accessToken: [] }),
  'tenant-header': () => ({ tenantCode: [] }),
};

/** The operation's `security`: any one of the requirements lets the caller in; `[]` is a public route. */
export function securityOf(access: RouteAccess): Requirement[] {
  if (access.auth === 'public') return [];
  if (access.auth === 'operator') return [{ operatorToken: [] }];
  const seen = new Set<string>();
  return access.credentials
    .map((credential) => requirementsOf[credential](access))
    .filter((r) => !seen.has(JSON.stringify(r)) && seen.add(JSON.stringify(r)));
}

const words: Record<TenantCredential, string> = {
  secret: 'a secret key',
  restricted: 'a restricted key',
  publishable: 'a publishable key',
  user: 'a signed-in person\'s access token',
  'tenant-header': 'a tenant header alone',
};

/** What the operation's description says about access, and the same as the `x-svc-access` extension. */
export function accessNote(access: RouteAccess): { text: string; extension: Record<string, unknown> } {
  if (access.auth === 'public') return { text: '**Access:** public, no credential; limited per client IP.', extension: { auth: 'public' } };
  if (access.auth === 'operator') return { text: '**Access:** the operator token.', extension: { auth: 'operator' } };
  const parts = [`**Access:** ${access.credentials.map((c) => words[c]).join(', ')}.`];
  if (access.credentials.includes('restricted')) {
    parts.push(`A restricted key needs the scope \`${access.scope}\`${access.altScopes?.length ? ` (or ${access.altScopes.map((s) => `\`${s}\``).join(', ')})` : ''}.`);
  }
  if (access.permission && access.credentials.includes('user')) parts.push(`A signed-in member needs the permission \`${access.permission}\`.`);
  if (access.customerToken === 'required') parts.push('With a publishable key, a customer token is required.');
  if (access.product) parts.push(`The tenant must have the \`${access.product}\` product on.`);
  if (access.testMode === false) parts.push('Live mode only.');
  if (access.liveMode === false) parts.push('Test mode only.');
  const { auth, credentials, scope, altScopes, permission, customerToken, product } = access;
  return {
    text: parts.join(' '),
    extension: { auth, credentials, scope, ...(altScopes && { alt_scopes: altScopes }), ...(permission && { permission }), ...(customerToken && { customer_token: customerToken }), ...(product && { product }) },
  };
}
