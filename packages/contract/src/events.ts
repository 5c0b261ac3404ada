import { z } from 'zod';
import { accessEvents } from './events/access.events';
import { platformEvents } from './events/platform.events';
import { streamsEvents } from './events/streams.events';
import { ticketingEvents } from './events/ticketing.events';
import { messagingEvents } from './events/messaging.events';
import { creatorsEvents } from './events/creators.events';
import { domainEvents } from './events/platform-domains.events';
import { paymentsEvents } from './events/payments.events';
import { orderKindEvents } from './events/orders.events';
import { commerceEvents } from './events/commerce.events';

export { defineEvents, ResourcePayloadSchema, type EventDefinition } from './events/define-events';

/** Every outbound event type, declared once with its payload schema. A product adds its list here. */
export const EVENT_DEFINITIONS = {
  ...platformEvents,
  ...domainEvents,
  ...streamsEvents,
  ...accessEvents,
  ...ticketingEvents,
  ...messagingEvents,
  ...creatorsEvents,
  ...paymentsEvents,
  ...orderKindEvents,
  ...commerceEvents,
} as const;

export type EventType = keyof typeof EVENT_DEFINITIONS;
export const EVENT_TYPES = Object.keys(EVENT_DEFINITIONS) as EventType[];
/** `data.object` of an event of type `T`. */
export type EventPayload<T extends EventType> = z.output<(typeof EVENT_DEFINITIONS)[T]['payload']>;

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_DEFINITIONS, value);

/**
 * Whether `type` matches a filter: `*` matches every type, `streams.*` a product, `streams.live_stream.*`
 * a resource, anything else only itself. Used by webhook endpoints' `enabled_events` and `GET /v1/events?type=`.
 */
export function eventTypeMatches(filter: string, type: string): boolean {
  if (filter === '*') return true;
  if (filter.endsWith('.*')) return type.startsWith(filter.slice(0, -1));
  return filter === type;
}

/** A filter is valid when it is `*`, a known type, or a `prefix.*` that matches at least one known type. */
export function isValidEventFilter(filter: string): boolean {
  if (filter === '*') return true;
  if (filter.endsWith('.*')) {
    const prefix = filter.slice(0, -2);
    return prefix.length > 0 && !prefix.includes('*') && EVENT_TYPES.some((t) => eventTypeMatches(filter, t));
  }
  return isEventType(filter);
}

export const EventFilterSchema = z
  .string()
  .min(1)
  .max(100)
  .refine(isValidEventFilter, { message: 'Unknown event type; use a known type, `*`, or a wildcard such as `streams.*`.' });

export const EventEnvelopeSchema = z
  .object({
    id: z.string().describe('Starts `evt_`; the same on every retry and replay, so receivers dedupe by it.'),
    object: z.literal('event'),
    type: z.string().describe('`{product}.{resource}.{action}`, past tense. New types may appear; ignore unknown ones.'),
    api_version: z.string().describe('Date-shaped version of the payload.'),
    created_at: z.string(),
    livemode: z.boolean(),
    tenant: z.string().describe('Tenant id (`ten_`).'),
    subject: z.string().describe('ID of the resource the event is about.'),
    data: z.object({
      object: z.record(z.string(), z.unknown()).describe('The resource as the API returns it, without secrets.'),
      previous_attributes: z
        .record(z.string(), z.unknown())
        .nullable()
        .describe('Old values of the fields that changed; `null` when the event is not about a change.'),
    }),
    request: z
      .object({ id: z.string(), idempotency_key: z.string().nullable() })
      .nullable()
      .describe('The API request that caused the event; `null` when it came from the service itself.'),
  })
  .meta({ id: 'Event' });
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
