import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';

const c = initContract();

export const MESSAGE_CHANNELS = ['whatsapp', 'sms', 'email'] as const;
export type MessageChannelName = (typeof MESSAGE_CHANNELS)[number];

export const MessageSchema = z
  .object({
    id: z.string().describe('Starts `msg_`.'),
    object: z.literal('message'),
    livemode: z.boolean(),
    channel: z.enum(MESSAGE_CHANNELS),
    to: z.string().describe('Phone number (E.164) or email address.'),
    template: z.string().describe('What the message is: `otp_code`, `magic_link`, `member_invitation`.'),
    subject: z.string().nullable(),
    body: z
      .string()
      .describe('The whole text in test mode (codes and links included); in live mode a message holding a code or link reads `[redacted]`.'),
    status: z.enum(['captured', 'queued', 'sent', 'failed']).describe('Test mode sends nothing: `captured`.'),
    error_code: z.string().nullable().describe('Why it failed, e.g. `channel_not_configured`.'),
    related: z.array(z.string()).describe('IDs of the objects the message is about (person, customer, member).'),
    created_at: z.string(),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'messaging:read' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const messagesContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/messages',
      summary: 'List messages',
      description: 'The outbox of this environment, newest first: every sign-in code, email link and invitation. Filter by `to`, `channel`, `template` or `related` (an object id).',
      query: CursorPageQuerySchema.extend({
        to: z.string().max(320).optional(),
        channel: z.enum(MESSAGE_CHANNELS).optional(),
        template: z.string().max(100).optional(),
        related: z.string().max(255).optional(),
      }),
      responses: { 200: cursorListOf(MessageSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/messages/:id',
      summary: 'Retrieve a message',
      description: 'One message of the outbox.',
      pathParams: z.object({ id: z.string().max(255) }),
      responses: { 200: dataOf(MessageSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);
