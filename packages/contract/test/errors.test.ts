import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ERROR_TYPES, isErrorCode } from '../src/common/errors';

/** Every code in the spec's "Codes and conditions" table, with its HTTP status. */
const SPEC_CODES: Record<string, number> = {
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  invalid_customer_token: 401,
  access_denied: 403,
  device_limit_reached: 403,
  view_limit_reached: 403,
  session_ended: 403,
  concurrency_limit_reached: 409,
  stream_disabled: 409,
  asset_not_ready: 409,
  no_playback_id: 409,
  signing_not_configured: 409,
  dedicated_environment_required: 409,
  provider_storage_exhausted: 409,
  resource_not_found: 404,
  provider_rejected: 422,
  aspect_not_supported: 422,
  entitlement_revoked: 409,
  product_not_enabled: 403,
  test_mode_unavailable: 403,
  insufficient_permissions: 403,
  INVALID_OPERATION: 422,
  INVALID_TICKET: 400,
  INVALID_FORMAT: 400,
  INVALID_STATE: 409,
  PAYMENT_PENDING: 422,
  VALIDATION_ERROR: 422,
  TOO_MANY_REQUESTS: 429,
};

/** The spec's type table: which statuses each type may use. */
const TYPE_STATUSES: Record<string, number[]> = {
  invalid_request_error: [400, 404, 405, 409, 413, 415, 422],
  authentication_error: [401],
  permission_error: [403],
  rate_limit_error: [429],
  idempotency_error: [409],
  provider_error: [502],
  api_error: [500, 503],
};

describe('error catalogue', () => {
  it('holds every code of the spec with its status', () => {
    for (const [code, status] of Object.entries(SPEC_CODES)) {
      expect(isErrorCode(code), code).toBe(true);
      expect(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status, code).toBe(status);
    }
    expect(ERROR_CATALOGUE.ticket_type_sold_out.status).toBeGreaterThanOrEqual(400);
    expect(ERROR_CATALOGUE.ticket_type_sold_out.status).toBeLessThan(500);
  });

  it('gives each code a type whose statuses include its own, and a description', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(ERROR_TYPES, code).toContain(entry.type);
      expect(TYPE_STATUSES[entry.type], code).toContain(entry.status);
      expect(entry.description.length, code).toBeGreaterThan(10);
    }
  });

  it('marks exactly the upper-case codes as answering in the reduced shape', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect('reduced' in entry, code).toBe(code === code.toUpperCase());
    }
  });
});
