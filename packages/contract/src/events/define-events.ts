import { z } from 'zod';

/** One outbound event type: what `data.object` holds and when the event is sent. */
export interface EventDefinition {
  payload: z.ZodType;
  description: string;
}

/** Event types are `{product}.{resource}.{action}`, action in the past tense. */
export type EventTypeName = `${string}.${string}.${string}`;

/** Declares a product's event types; `events.ts` merges every product's list into the one registry. */
export const defineEvents = <const T extends Record<EventTypeName, EventDefinition>>(events: T): T => events;

/**
 * Payload of event types whose resource the spec does not spell out yet: the resource as the API returns it,
 * of which only `id` and `object` are fixed. The product that owns the resource replaces it with its schema.
 */
export const ResourcePayloadSchema = z.looseObject({ id: z.string(), object: z.string() });
