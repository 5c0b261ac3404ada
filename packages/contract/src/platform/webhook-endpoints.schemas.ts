import { z } from 'zod';
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;

export const WebhookEndpointSchema = z
  .object({
    id: z.string().describe('Starts `whe_`.'),
    object: z.literal('webhook_endpoint'),
    livemode: z.boolean().describe('Live endpoints receive live events only; test endpoints test events only.'),
    url: z.string(),
    description: z.string().nullable(),
    enabled_events: z.array(z.string()).describe('Event types delivered: exact types, `*`, or wildcards such as `streams.*`.'),
    api_version: z.string(),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
    disabled_reason: z
      .enum(['manual', 'gone', 'failing'])
      .nullable()
      .describe('`manual` (set through the API), `gone` (the URL answered `410`), `failing` (every delivery failed for 3 days).'),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .describe('While a rolled secret is in its grace period: when the old secret stops signing deliveries.'),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    secret: z
      .string()
      .optional()
      .describe('The signing secret `whsec_…`: returned once, on creation and on `roll_secret`.'),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookAttemptSchema = z
  .object({
    id: z.string().describe('Starts `wha_`.'),
    object: z.literal('webhook_attempt'),
    livemode: z.boolean(),
    webhook_endpoint: z.string(),
    event: z.string(),
    event_type: z.string(),
    attempt: z.number().int().describe('1 for the first try of a delivery, then 2, 3, … on retries.'),
    url: z.string(),
    status_code: z.number().int().nullable().describe('HTTP status answered; `null` when no response arrived.'),
    succeeded: z.boolean(),
    latency_ms: z.number().int(),
    response_body: z.string().nullable().describe('The first 4 KB of the response body.'),
    error: z.string().nullable().describe('Why the attempt failed: `timeout`, `redirect_not_followed`, a network error, …'),
    next_attempt_at: z.string().nullable().describe('When the delivery is tried again, if it will be.'),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;
