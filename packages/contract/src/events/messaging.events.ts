import { defineEvents } from './define-events';
import { MessageSchema } from '../identity/messages.contract';

// `data.object` is the message as `GET /v1/messages/{id}` returns it (codes and links redacted in live mode).
export const messagingEvents = defineEvents({
  'messaging.message.delivered': {
    payload: MessageSchema,
    description: 'The provider reported the message delivered to the person. `related` names what it was about (order, ticket, member).',
  },
  'messaging.message.failed': {
    payload: MessageSchema,
    description: 'The message will not reach the person: a permanent refusal, retries used up, a bounce or failed receipt; `error_code` says why.',
  },
});
