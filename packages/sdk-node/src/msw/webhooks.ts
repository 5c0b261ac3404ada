import { API_VERSION, EVENT_DEFINITIONS, eventTypeMatches, type EventPayload, type EventType } from '@svc/contract';
import { signWebhook } from '@svc/webhook-verify';
import type { z } from 'zod';
import { fakeFromSchema, mockId } from './fake';
import type { MockObject, MockStore } from './store';

export interface MockDelivery {
  endpoint: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The receiver's answer status, or the error message when the request failed. */
  result?: number | string;
}

/** An event envelope as the server records it, with `data.object` of the event's payload schema. */
export function makeEvent<T extends EventType>(store: MockStore, type: T, object?: Partial<EventPayload<T>> & Record<string, unknown>): MockObject {
  const payload = { ...(fakeFromSchema(EVENT_DEFINITIONS[type].payload as z.ZodType) as Record<string, unknown>), ...object };
  const event = {
    id: mockId('event'),
    object: 'event',
    type,
    api_version: API_VERSION,
    created_at: new Date().toISOString(),
    livemode: false,
    tenant: 'ten_mock',
    subject: String(payload.id ?? ''),
    data: { object: payload, previous_attributes: null },
    request: null,
  };
  return store.insert(event);
}

/** Signed deliveries of an event to the enabled endpoints in the store whose `enabled_events` match it. */
export async function deliveriesOf(store: MockStore, event: MockObject): Promise<MockDelivery[]> {
  const body = JSON.stringify(event);
  const endpoints = store
    .all('webhook_endpoint')
    .filter((e) => e.status !== 'disabled' && ((e.enabled_events as string[] | undefined) ?? []).some((f) => eventTypeMatches(f, String(event.type))));
  return Promise.all(
    endpoints.map(async (endpoint) => {
      const secret = store.secrets.get(endpoint.id);
      const signature = secret ? await signWebhook(body, secret) : '';
      return {
        endpoint: endpoint.id,
        url: String(endpoint.url),
        body,
        headers: { 'content-type': 'application/json', 'svc-signature': signature, 'svc-event-id': event.id, 'svc-event-type': String(event.type) },
      };
    }),
  );
}
