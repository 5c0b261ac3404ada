/** The reference's sections: the spec's product areas, each operation in exactly one. */
export const TAGS = {
  Platform: 'Service status and build information.',
  'API keys': 'Secret, restricted and publishable keys of a tenant\'s environment: create, roll, revoke.',
  Webhooks: 'Webhook endpoints that receive the tenant\'s events, signed per Standard Webhooks; deliveries, replays and tests.',
  'Event log': 'Every event of the tenant\'s environment, as delivered to webhooks, to list and read back.',
  Operator: 'The self-hosted operator\'s routes: tenants and the identity signing keys. They take the operator token only.',
  Streams: 'Live streams, assets, uploads, clips, moments, playback ids, signing keys and video provider accounts.',
  Access: 'Entitlements, access checks, playback sessions and the keys that sign customer tokens.',
  Identity: 'Sign-in (codes, email links, OpenID Connect), sessions, access tokens and their discovery document and keys.',
  Messaging: 'The messages sent to people (sign-in codes, tickets, receipts) and their delivery status.',
  Customers: 'The tenant\'s customers, the people entitlements and orders belong to.',
  Organizations: 'Organizers and their members, roles and invitations.',
  Events: 'Organizer events, their slots, ticket types and coupons.',
  Ticketing: 'Booking, orders, tickets, attendees and door check-ins.',
  Payments: 'Checkout sessions and the hosted checkout page, pay-later orders, refunds and event cancellation.',
  Insights: 'Organizer analytics and activity feeds.',
  Creators: 'Creator capsules and their content, the tenant\'s approval queue, and the public pages.',
  Whitelabel: 'The tenant\'s and organizations\' branding, and the custom domains their pages are served on.',
  Promoters: 'Promoters, their assignments, tracking codes and attribution, the commission ledger, payouts, reports and the promoter\'s own view.',
  'Request log': 'Every API request made with the tenant\'s keys or its staff\'s tokens, with its status, latency and error.',
  'Provider callbacks': 'Routes that video, messaging and payment providers call, outside the JSON contract: each verifies its provider\'s signature or secret over the raw body.',
  Commerce: 'Products and variants with their stock, organizations\' commerce settings, and public product reads.',
  Documentation: 'This document and the pages that show it.',
  Fanbases: 'An organization\'s fanbase, its membership tiers, members, subscriptions, and the fans\' own routes.',
  Internal: 'Callbacks of the server\'s own media network (nginx-rtmp). They take a secret only that process knows and answer `404` to anyone else.',
} as const;

export type Tag = keyof typeof TAGS;

/** The first key of the contract path (`streams`, `ticketingPayments`) names the area; a few groups are split finer. */
const BY_GROUP: Record<string, Tag> = {
  platform: 'Platform',
  keys: 'API keys',
  operator: 'Operator',
  webhookEndpoints: 'Webhooks',
  eventLog: 'Event log',
  streams: 'Streams',
  access: 'Access',
  identity: 'Identity',
  'identity.messages': 'Messaging',
  customers: 'Customers',
  organizations: 'Organizations',
  organizerEvents: 'Events',
  ticketTypes: 'Events',
  eventSlots: 'Events',
  coupons: 'Events',
  ticketingPayments: 'Payments',
  booking: 'Ticketing',
  orders: 'Ticketing',
  tickets: 'Ticketing',
  attendees: 'Ticketing',
  checkins: 'Ticketing',
  analytics: 'Insights',
  activity: 'Insights',
  creators: 'Creators',
  branding: 'Whitelabel',
  domains: 'Whitelabel',
  requestLogs: 'Request log',
  payments: 'Payments',
  fanbases: 'Fanbases',
  fanbasesPublic: 'Fanbases',
  subscriptions: 'Fanbases',
  commerce: 'Commerce',
  promoters: 'Promoters',
  commissions: 'Promoters',
  promoterView: 'Promoters',
};

/**
 * The tag of a contract route, from its router keys; operator routes go under Operator wherever they are declared.
 * A group missing from BY_GROUP is tagged with its own key, which is no top-level tag: the contract's tests and the
 * linters then name it, while the server still starts.
 */
export function tagOf(routerKeys: readonly string[], auth: string): string {
  if (auth === 'operator') return 'Operator';
  return BY_GROUP[routerKeys.slice(0, 2).join('.')] ?? BY_GROUP[routerKeys[0] ?? ''] ?? routerKeys.join('.');
}
