/**
 * Public ID prefixes. An ID is the prefix plus a time-ordered, base32-encoded UUIDv7, so IDs sort by creation.
 * The spec's prefixes come first; the rest name objects the spec leaves unnamed (see docs/decisions.md).
 */
export const ID_PREFIXES = {
  event: 'evt',
  ticket: 'tkt',
  live_stream: 'ls',
  customer: 'cus',
  order: 'ord',
  asset: 'ast',
  playback_id: 'pb',
  access_session: 'as',
  entitlement: 'ent',
  customer_token_key: 'ctk',
  customer_token_key_secret: 'cts',
  tenant: 'ten',
  request: 'req',
  provider_configuration: 'mpc',
  api_key: 'key',
  webhook_endpoint: 'whe',
  webhook_delivery: 'whd',
  webhook_attempt: 'wha',
  outbox_email: 'eml',
  upload: 'upl',
  clip: 'clp',
  moment: 'mom',
  simulcast_target: 'sct',
  signing_key: 'psk',
  // Identity
  user: 'usr',
  message: 'msg',
  organization: 'org',
  member: 'mem',
  auth_session: 'ses',
  refresh_token: 'rtk',
  identity_signing_key: 'isk',
  otp_challenge: 'otp',
  // Ticketing
  payment: 'pay',
  payment_provider_config: 'ppc',
  refund: 're',
  checkout_session: 'cs',
  // Creators
  capsule: 'cap',
  content: 'cnt',
  content_approval: 'apr',
  // Whitelabel
  domain: 'dom',
  // Orders
  line_item: 'li',
  // Commerce
  product: 'prd',
  product_variant: 'var',
} as const;

export type ObjectType = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[ObjectType];

const prefixToType = new Map<string, ObjectType>(
  Object.entries(ID_PREFIXES).map(([type, prefix]) => [prefix, type as ObjectType]),
);

/** The object type an ID names, or `undefined` for an unknown prefix. */
export function objectTypeOfId(id: string): ObjectType | undefined {
  const underscore = id.lastIndexOf('_');
  if (underscore <= 0) return undefined;
  return prefixToType.get(id.slice(0, underscore));
}

/** API key secrets: `{sk|rk|pk}_{live|test}_` then random text. */
export const API_KEY_TYPES = { secret: 'sk', restricted: 'rk', publishable: 'pk' } as const;
export type ApiKeyType = keyof typeof API_KEY_TYPES;
