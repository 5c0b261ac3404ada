import { WebhookEndpointSchema } from '../platform/webhook-endpoints.schemas';
import { defineEvents } from './define-events';

export const platformEvents = defineEvents({
  'platform.webhook_endpoint.disabled': {
    payload: WebhookEndpointSchema,
    description:
      'The endpoint was disabled by the service: it answered `410 Gone`, or every delivery to it failed for 3 days (`data.object.disabled_reason`).',
  },
  'platform.webhook_endpoint.tested': {
    payload: WebhookEndpointSchema,
    description: 'Sent by `POST /v1/webhook_endpoints/{id}/test`, to that endpoint only.',
  },
});
