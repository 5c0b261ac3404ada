import { LIMITS } from '../common/limits';

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers the server sets on its answers (request id, rate limits, idempotent replays, 429's wait). */
export const responseHeaders = {
  RequestId: {
    description: 'The `req_` id of this request; quote it when asking about a request. Also in the error body as `request_id`.',
    required: true,
    schema: { type: 'string', pattern: '^req_' },
  },
  RateLimitLimit: {
    description: 'Requests per second the caller\'s bucket allows (per key, per viewer of a publishable key, or per client IP on public routes).',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: { description: 'Requests left in the current second.', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the bucket refills.', schema: { type: 'integer', minimum: 1 } },
  IdempotentReplayed: {
    description: '`true` when this answer is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
} as const;

const idempotencyDescription =
  'Makes a retry safe: the first answer is stored for 24 hours per caller and replayed (`Idempotent-Replayed: true`) for a repeat with the same key, ' +
  `method, path and body; a different request with the key is \`409 idempotency_key_reused\`. At most ${LIMITS.idempotency.maxKeyLength} characters.`;

/** `Idempotency-Key`, taken on every POST, PATCH and DELETE; some routes refuse a request without it. */
export const requestParameters = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: idempotencyDescription,
    schema: { type: 'string', minLength: 1, maxLength: LIMITS.idempotency.maxKeyLength },
  },
  IdempotencyKeyRequired: {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description: `Required on this route (\`400 idempotency_key_required\` without it). ${idempotencyDescription}`,
    schema: { type: 'string', minLength: 1, maxLength: LIMITS.idempotency.maxKeyLength },
  },
} as const;

export const MUTATING = new Set(['post', 'patch', 'delete']);

/** The headers of one response of an operation with this method and status. */
export function headersFor(method: string, status: string): Record<string, unknown> {
  return {
    'Request-Id': ref('RequestId'),
    'RateLimit-Limit': ref('RateLimitLimit'),
    'RateLimit-Remaining': ref('RateLimitRemaining'),
    'RateLimit-Reset': ref('RateLimitReset'),
    ...(MUTATING.has(method) && { 'Idempotent-Replayed': ref('IdempotentReplayed') }),
    ...(status === '429' && { 'Retry-After': ref('RetryAfter') }),
  };
}

export const idempotencyParameter = (required: boolean) => ({
  $ref: `#/components/parameters/${required ? 'IdempotencyKeyRequired' : 'IdempotencyKey'}`,
});
