import { z } from 'zod';

/** The error classes of the spec's Errors table; clients fall back to these for codes they do not know. */
export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'idempotency_error',
  'provider_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface ErrorDefinition {
  type: ErrorType;
  status: number;
  description: string;
  /** Endpoints that answer with the reduced `{error: {code, message}}` shape (the spec's upper-case codes). */
  reduced?: true;
}

const def = (type: ErrorType, status: number, description: string): ErrorDefinition => ({ type, status, description });
const reduced = (type: ErrorType, status: number, description: string): ErrorDefinition => ({
  type,
  status,
  description,
  reduced: true,
});

/**
 * Every error code the API can answer with. Clients branch on `code`; an unknown code is treated as its `type`.
 * Add a code here before using it: the server refuses to build an error for a code that is not listed.
 */
export const ERROR_CATALOGUE = {
  // Request shape
  validation_failed: def('invalid_request_error', 422, 'A field failed validation; `details` lists the messages per field.'),
  malformed_json: def('invalid_request_error', 400, 'The request body is not valid JSON.'),
  invalid_request: def('invalid_request_error', 400, 'The request cannot be processed as sent; `param` names the part at fault.'),
  invalid_expand_path: def('invalid_request_error', 400, 'An `expand[]` path is unknown or deeper than two levels; `param` holds the path.'),
  invalid_cursor: def('invalid_request_error', 400, 'The pagination cursor is not one this list issued.'),
  route_not_found: def('invalid_request_error', 404, 'No route matches this method and path.'),
  method_not_allowed: def('invalid_request_error', 405, 'The path exists but does not accept this HTTP method.'),
  resource_not_found: def('invalid_request_error', 404, 'No such object for this tenant and environment (also for an unknown ID prefix).'),
  body_too_large: def('invalid_request_error', 413, 'The request body is larger than the server accepts.'),
  unsupported_media_type: def('invalid_request_error', 415, 'The request body is not `application/json`.'),
  key_inactive: def('invalid_request_error', 409, 'The API key is revoked or expired, so it cannot be rolled.'),
  external_id_taken: def('invalid_request_error', 409, 'Another object of this type already uses this `external_id` in this environment.'),
  webhook_url_not_allowed: def('invalid_request_error', 422, 'The webhook URL is refused: live-mode endpoints need `https://` and a public address; `details.reason` says why.'),
  webhook_endpoint_disabled: def('invalid_request_error', 409, 'The webhook endpoint is disabled; enable it (`PATCH status: enabled`) before replaying or testing.'),
  tenant_code_taken: def('invalid_request_error', 409, 'Another tenant already uses this `code`.'),
  tenant_mismatch: def('invalid_request_error', 400, 'The tenant header names another tenant than the key (400) or the access token\'s `tid` (401).'),
  tenant_not_found: def('invalid_request_error', 404, 'No tenant has the code or `ten_` id given in `X-Tenant-Code` / `Svc-Tenant`.'),
  handle_taken: def('invalid_request_error', 409, 'Another organization of this tenant and environment already uses this `handle`.'),
  member_exists: def('invalid_request_error', 409, 'This email or phone is already a member here.'),
  slug_taken: def('invalid_request_error', 409, 'Another object of its kind in this tenant and environment already uses this `slug` (an event, a content item).'),
  last_owner: def('invalid_request_error', 409, 'The last owner cannot leave or be demoted; make another member owner first.'),
  oidc_login_invalid: def('invalid_request_error', 400, 'The OpenID Connect answer was refused (unknown or used `state`, or the provider\'s checks failed); `details.reason` says why.'),
  domain_taken: def('invalid_request_error', 409, 'The hostname is verified or active in another tenant or environment; verifying it does not transfer it.'),
  domain_limit_reached: def('invalid_request_error', 409, 'The environment already has 20 domains.'),
  hostname_not_allowed: def('invalid_request_error', 422, 'The hostname is malformed, an IP address, a wildcard, or the deployment\'s own host or one of its subdomains.'),
  // Idempotency
  idempotency_key_required: def('invalid_request_error', 400, 'This route requires an `Idempotency-Key` header.'),
  idempotency_key_invalid: def('invalid_request_error', 400, 'The `Idempotency-Key` header is empty or longer than 255 characters.'),
  idempotency_key_reused: def('idempotency_error', 409, 'The `Idempotency-Key` was already used with a different method, path or body.'),
  idempotency_key_in_use: def('idempotency_error', 409, 'A request with this `Idempotency-Key` is still running; retry after it finishes.'),
  // Authentication
  api_key_missing: def('authentication_error', 401, 'No API key was sent; send `Authorization: Bearer <key>`.'),
  api_key_invalid: def('authentication_error', 401, 'The API key is malformed or unknown.'),
  api_key_expired: def('authentication_error', 401, 'The API key passed its expiry (for example after a roll).'),
  api_key_revoked: def('authentication_error', 401, 'The API key was revoked.'),
  operator_token_invalid: def('authentication_error', 401, 'The operator token is missing or wrong.'),
  invalid_customer_token: def('authentication_error', 401, 'The customer token was refused; `details.reason` says why.'),
  invalid_playback_token: def('authentication_error', 401, 'The playback token was refused; `details.reason` says why (`missing`, `malformed`, `unknown_key`, `key_revoked`, `invalid_signature`, `token_expired`, `invalid_claims`).'),
  otp_invalid: def('authentication_error', 401, 'The sign-in code is wrong, or no code was requested for this phone or email.'),
  otp_expired: def('authentication_error', 401, 'The sign-in code expired (5 minutes for a phone, 10 for an email); request a new one.'),
  invalid_access_token: def('authentication_error', 401, 'The identity access token was refused; `details.reason` says why (`unsupported`, `malformed`, `unknown_key`, `invalid_signature`, `token_expired`, `invalid_claims`, `session_ended`).'),
  refresh_token_invalid: def('authentication_error', 401, 'The refresh token is unknown, or its session ended (logout, 30 days idle or 90 days in all).'),
  refresh_token_already_used: def('authentication_error', 401, 'The refresh token was used before: the whole session is revoked; sign in again.'),
  // Permission
  missing_permission: def('permission_error', 403, 'The signed-in member\'s role lacks the permission this route needs; `details.required_permission` names it.'),
  missing_scope: def('permission_error', 403, 'The restricted key lacks the scope this route needs; `details.required_scope` names it.'),
  ip_not_allowed: def('permission_error', 403, "The request's IP address is not in the key's allowlist."),
  product_not_enabled: def('permission_error', 403, 'The product is switched off for this tenant.'),
  test_mode_unavailable: def('permission_error', 403, 'The route does not accept test-mode credentials.'),
  live_mode_unavailable: def('permission_error', 403, 'The route is a test helper: it takes test-mode keys only.'),
  insufficient_permissions: def('permission_error', 403, 'The route does not accept this kind of credential.'),
  access_denied: def('permission_error', 403, 'No active entitlement covers this; `details.reason` says why.'),
  device_limit_reached: def('permission_error', 403, 'The entitlement\'s `max_devices` is used up.'),
  view_limit_reached: def('permission_error', 403, 'The entitlement\'s `max_views` is used up.'),
  session_ended: def('permission_error', 403, 'The access session has ended; `details.reason` says why.'),
  // Conflicts of state
  concurrency_limit_reached: def('invalid_request_error', 409, 'Another session is open and the policy is `reject_new`.'),
  stream_disabled: def('invalid_request_error', 409, 'The live stream is disabled.'),
  asset_not_ready: def('invalid_request_error', 409, 'The asset is still processing.'),
  no_playback_id: def('invalid_request_error', 409, 'The resource has no playback id yet.'),
  signing_not_configured: def('invalid_request_error', 409, 'Playback signing is not set up for the account.'),
  dedicated_environment_required: def('invalid_request_error', 409, 'Signing keys need the account\'s own video environment.'),
  provider_storage_exhausted: def('invalid_request_error', 409, 'Stream start refused: the video account has no storage left.'),
  video_network_not_configured: def('invalid_request_error', 409, 'Live mode has no video network for this tenant yet; the operator chooses one (`video.live_network`).'),
  invalid_state_transition: def('invalid_request_error', 409, 'The object\'s current `status` does not allow this; `details` has the status and the event.'),
  stream_key_rejected: def('invalid_request_error', 409, 'The stream key the encoder presented is not the stream\'s current key (for example after a reset).'),
  signing_key_limit_reached: def('invalid_request_error', 409, 'The environment already has the most active playback signing keys allowed (1,000); revoke one first.'),
  entitlement_revoked: def('invalid_request_error', 409, 'The repeated grant matches a revoked entitlement; use a new `source_ref`.'),
  ticket_type_sold_out: def('invalid_request_error', 409, 'The ticket type is sold out; `param` names the field.'),
  checkout_session_complete: def('invalid_request_error', 409, 'The checkout session was already paid.'),
  checkout_session_expired: def('invalid_request_error', 409, 'The checkout session is no longer open: a newer one replaced it (pay-later), or its order ended.'),
  order_not_payable: def('invalid_request_error', 409, 'The order cannot take a payment: it is cancelled or refunded, or its event was cancelled.'),
  order_not_refundable: def('invalid_request_error', 409, 'Only a `paid` or `partially_refunded` order can be refunded.'),
  refund_amount_too_large: def('invalid_request_error', 422, 'The refund is more than what is left to refund (`amount_paid - amount_refunded`); `details.refundable` says how much is.'),
  pay_later_not_allowed: def('invalid_request_error', 409, 'The order was not booked to pay later, or nothing is left to pay.'),
  sold_out: def('invalid_request_error', 409, 'Not enough seats are left for this booking (the event, slot or ticket type is full).'),
  not_bookable: def('invalid_request_error', 422, 'The ticket cannot be booked now; `details.reason` is the `bookable_reason` code of `GET …/book/payload`.'),
  coupon_invalid: def('invalid_request_error', 422, 'The coupon code is unknown, not valid now or for this ticket type, or used up; `details.reason` says which.'),
  provider_rejected: def('invalid_request_error', 422, 'The video network cannot do what was asked.'),
  aspect_not_supported: def('invalid_request_error', 422, 'Clip `aspect` is not supported.'),
  provider_config_in_use: def('invalid_request_error', 409, 'The provider configuration is chosen in the Streams or Payments settings, or objects made on it (live streams, assets, pending payments or refunds, automatically renewing subscriptions) still depend on it.'),
  payments_not_configured: def('invalid_request_error', 409, 'Live mode, and no payment provider configuration serves the order\'s organization: configure one; do not retry as it is.'),
  payment_credentials_invalid: def('invalid_request_error', 422, 'The provider refused the credentials; `param` names the field, `details.reason` is `rejected`, `wrong_mode` or `malformed`.'),
  payment_method_unavailable: def('invalid_request_error', 422, 'No active configuration serves this method, currency or amount for the order.'),
  payment_in_progress: def('invalid_request_error', 409, 'A mobile money prompt of this checkout still awaits the payer.'),
  provider_refund_unavailable: def('invalid_request_error', 409, 'The payment\'s configuration cannot return money; record the refund with `manual: true`.'),
  provider_webhook_refused: def('authentication_error', 401, 'An inbound provider notification had no valid signature or shared secret, or was older than five minutes.'),
  upload_url_used: def('invalid_request_error', 409, 'The one-time upload URL already took its file; create a new upload.'),
  upload_origin_not_allowed: def('permission_error', 403, 'The request\'s `Origin` is not the upload\'s `cors_origin`.'),
  event_has_no_ticket_types: def('invalid_request_error', 409, 'An event needs at least one ticket type before it is published.'),
  product_unavailable: def('invalid_request_error', 422, 'A line item\'s product or variant cannot be ordered; `param` names the item, `details.reason` is `not_published`, `inactive`, `other_organization`, `currency_mismatch` or `quantity_over_limit`.'),
  out_of_stock: def('invalid_request_error', 409, 'Not enough stock for a line item; `details.variants` lists the variants short (ids only).'),
  sku_taken: def('invalid_request_error', 409, 'Another variant of this environment uses this SKU (compared without case).'),
  coupon_code_taken: def('invalid_request_error', 409, 'Another coupon of this event already uses this `code` (compared without case).'),
  // Fanbases
  fanbase_exists: def('invalid_request_error', 409, 'The organization already has a fanbase.'),
  fanbase_closed: def('invalid_request_error', 409, 'The fanbase is archived, or joins or subscriptions are switched off on the creator\'s capsule.'),
  free_tier_exists: def('invalid_request_error', 409, 'The fanbase already has a published free tier.'),
  tier_unavailable: def('invalid_request_error', 422, 'The tier cannot be subscribed to; `details.reason` is `not_published`, `archived`, `full` or `free_tier`.'),
  already_subscribed: def('invalid_request_error', 409, 'The customer already has an `incomplete`, `active` or `past_due` subscription to this fanbase.'),
  subscription_active: def('invalid_request_error', 409, 'Leaving while a subscription is `active` or `past_due`: cancel it first.'),
  // Reduced-shape codes of the ticketing and content routes
  INVALID_OPERATION: reduced('invalid_request_error', 422, 'Publish of content that is not approved.'),
  INVALID_TICKET: reduced('invalid_request_error', 400, 'The ticket type is not available for the event.'),
  INVALID_FORMAT: reduced('invalid_request_error', 400, 'Export format other than CSV.'),
  INVALID_STATE: reduced('invalid_request_error', 409, 'Approve after reject, or reject after approve; an order action its status does not allow (cancel or expire a non-pending order).'),
  PAYMENT_PENDING: reduced('invalid_request_error', 422, 'Approve before the payment completes.'),
  VALIDATION_ERROR: reduced('invalid_request_error', 422, 'Resend without email, while pending approval, or after cancellation.'),
  TOO_MANY_REQUESTS: reduced('rate_limit_error', 429, 'The ticket was resent moments ago.'),
  // Limits and faults
  otp_attempts_exceeded: def('rate_limit_error', 429, 'Too many wrong codes: the code is burnt (5 tries), or the destination is locked for an hour (10 failures); retry after `Retry-After` seconds.'),
  send_cap_exceeded: def('rate_limit_error', 429, 'The tenant sent its hourly cap of live messages; retry after `Retry-After` seconds.'),
  message_not_resendable: def('invalid_request_error', 422, 'The message holds a code or a link: request a new one instead of resending it.'),
  message_callback_refused: def('authentication_error', 401, 'A messaging provider\'s delivery callback had no valid signature or shared secret.'),
  payments_unavailable: def('api_error', 503, 'Live mode, and every payment provider configuration that serves the order is `failing`.'),
  channel_unavailable: def('api_error', 503, 'No provider is configured for this message channel in live mode, so the code cannot be sent.'),
  // Promoters
  assignment_exists: def('invalid_request_error', 409, 'An active assignment of the promoter to this target exists: update it, or end it first.'),
  tracking_code_taken: def('invalid_request_error', 409, 'Another tracking code of the environment uses this code (compared without case).'),
  no_payable_commissions: def('invalid_request_error', 409, 'No approved balance above 0 in this currency, or another payout took the same entries first.'),
  payout_method_unavailable: def('invalid_request_error', 422, 'An M-Pesa payout without a configuration that can pay out, a `+254` phone, or KES.'),
  rate_limited: def('rate_limit_error', 429, 'Too many requests for this key; retry after `Retry-After` seconds.'),
  provider_unavailable: def('provider_error', 502, 'An upstream provider failed; retry with backoff.'),
  internal_error: def('api_error', 500, 'Unexpected fault in the service; retry with backoff.'),
  service_unavailable: def('api_error', 503, 'The service is starting or shutting down; retry with backoff.'),
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CATALOGUE, code);

export const ErrorBodySchema = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      code: z.string().describe('Stable code from the error catalogue; unknown codes are treated as their `type`.'),
      message: z.string(),
      param: z.string().nullable().optional(),
      details: z.record(z.string(), z.unknown()).nullable().optional(),
      request_id: z.string(),
      doc_url: z.string(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Response entries for the error statuses a route can answer with, all sharing the one error shape. */
export function errorResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBodySchema])) as { [K in S[number]]: typeof ErrorBodySchema };
}

/** Errors any authenticated route can answer with. */
export const COMMON_ERROR_STATUSES = [400, 401, 403, 429, 500] as const;
