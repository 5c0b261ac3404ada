import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';

const c = initContract();

export const MESSAGE_CHANNELS = ['whatsapp', 'sms', 'email'] as const;
export type MessageChannelName = (typeof MESSAGE_CHANNELS)[number];

export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'captured', 'cancelled'] as const;
export type MessageStatusName = (typeof MESSAGE_STATUSES)[number];

export const MessageSchema = z
  .object({
    id: z.string().describe('Starts `msg_`.'),
    object: z.literal('message'),
    livemode: z.boolean(),
    channel: z.enum(MESSAGE_CHANNELS),
    to: z.string().describe('Phone number (E.164) or email address.'),
    template: z.string().describe('What the message is: `otp_code`, `magic_link`, `member_invitation`, `ticket`, `receipt`, …'),
    subject: z.string().nullable(),
    body: z
      .string()
      .describe('The whole text in test mode (codes and links included); in live mode a message holding a code or link reads `[redacted]`.'),
    status: z
      .enum(MESSAGE_STATUSES)
      .describe(
        'Live mode: `queued` (waiting for its first attempt or a retry), `sending`, `sent` (the provider took it), `delivered` (the provider\'s receipt), ' +
          '`failed` (see `error_code`), `cancelled` (a code past its expiry is never sent late). Test mode sends nothing: `captured`, or `failed` for the magic recipients.',
      ),
    error_code: z
      .string()
      .nullable()
      .describe('Why it failed, or why the last attempt did while it waits for a retry: `channel_not_configured`, `invalid_number`, `not_on_whatsapp`, `unknown_recipient`, `bounced`, `expired`, `send_cap_exceeded`, …'),
    related: z.array(z.string()).describe('IDs of the objects the message is about (person, customer, member, order, ticket).'),
    attempts: z.number().int().describe('Provider calls made so far.'),
    next_attempt_at: z.string().nullable().describe('When the next retry is due (1 min, 5 min, 30 min, then 2 h after a failed attempt).'),
    provider_id: z.string().nullable().describe('The provider\'s id of the message (the email\'s `Message-ID`).'),
    sent_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    failed_at: z.string().nullable(),
    resent_from: z.string().nullable().describe('The message this one resends.'),
    created_at: z.string(),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'messaging:read' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'messaging:write' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const messagesContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/messages',
      summary: 'List messages',
      description:
        'The outbox of this environment, newest first: every sign-in code, email link, invitation, ticket and receipt. Filter by `to`, `channel`, `status`, `template` or `related` (an object id).',
      query: CursorPageQuerySchema.extend({
        to: z.string().max(320).optional(),
        channel: z.enum(MESSAGE_CHANNELS).optional(),
        status: z.enum(MESSAGE_STATUSES).optional(),
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
    resend: {
      method: 'POST',
      path: '/v1/messages/:id/resend',
      summary: 'Resend a message',
      description:
        'Sends the message again as a new message (`resent_from` names this one), whatever became of it. Refused for codes and links (`422 message_not_resendable`): ' +
        'request a new one. In live mode past the tenant\'s hourly send cap: `429 send_cap_exceeded`.',
      pathParams: z.object({ id: z.string().max(255) }),
      body: c.noBody(),
      responses: { 201: dataOf(MessageSchema), ...errors, ...errorResponses(404, 422) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
