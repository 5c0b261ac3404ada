import { z } from 'zod';

/**
 * The messaging channels of live mode, from the environment. A channel whose variables are unset is not
 * configured: its live messages fail with `channel_not_configured`. Half a channel (a user name without its
 * key) stops the start, as any other bad setting does.
 */
export const MESSAGING_CONFIG = {
  /** Email: `smtp://user:pass@host:587` or `smtps://…:465`. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of every email, `Name <address>` or an address. */
  SMTP_FROM: z.string().min(3).max(320).optional(),
  /** SMS through Africa's Talking: the application's user name (`sandbox` for the sandbox) and API key. */
  AFRICASTALKING_USERNAME: z.string().min(1).max(100).optional(),
  AFRICASTALKING_API_KEY: z.string().min(1).max(200).optional(),
  /** The registered sender id or short code; unset: the account's default. */
  AFRICASTALKING_SENDER_ID: z.string().min(1).max(20).optional(),
  /** The API's base URL; unset: the production API, or the sandbox's when the user name is `sandbox`. */
  AFRICASTALKING_API_URL: z.url().optional(),
  /** The secret in the delivery-report callback URL (`?secret=`); unset: callbacks are refused. */
  AFRICASTALKING_CALLBACK_SECRET: z.string().min(16, 'AFRICASTALKING_CALLBACK_SECRET must be at least 16 characters').optional(),
  /** WhatsApp Business Cloud API: the sender's phone number id and a system user's access token. */
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d{5,30}$/, 'WHATSAPP_PHONE_NUMBER_ID is the numeric id of the sender number').optional(),
  WHATSAPP_ACCESS_TOKEN: z.string().min(16).optional(),
  /** The app secret that signs webhook deliveries (`X-Hub-Signature-256`); unset: callbacks are refused. */
  WHATSAPP_APP_SECRET: z.string().min(8).optional(),
  /** The token the webhook subscription check (`hub.verify_token`) must carry. */
  WHATSAPP_VERIFY_TOKEN: z.string().min(8).optional(),
  /** The Graph API base with its version. */
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com/v21.0'),
  /** Approved templates: an authentication template for codes, a utility template with one body parameter for the rest. */
  WHATSAPP_AUTH_TEMPLATE: z.string().regex(/^[a-z0-9_]{1,512}$/).default('sign_in_code'),
  WHATSAPP_UTILITY_TEMPLATE: z.string().regex(/^[a-z0-9_]{1,512}$/).default('notification'),
  WHATSAPP_TEMPLATE_LANGUAGE: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/).default('en'),
  /**
   * How long one delivery attempt may take before its process is taken for dead and another sends the message;
   * keep it well above the providers' timeouts (15 s, SMTP 30 s).
   */
  SVC_MESSAGES_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  /** A tenant's live messages per clock hour; past it sends answer `429 send_cap_exceeded`. */
  SVC_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(1000),
};

type MessagingSettings = Partial<{ [K in keyof typeof MESSAGING_CONFIG]: z.output<(typeof MESSAGING_CONFIG)[K]> }>;

/** Variables that only work together. */
const PAIRS: Array<[keyof MessagingSettings, keyof MessagingSettings]> = [
  ['SMTP_URL', 'SMTP_FROM'],
  ['AFRICASTALKING_USERNAME', 'AFRICASTALKING_API_KEY'],
  ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN'],
];

export function checkMessagingConfig(c: MessagingSettings, ctx: z.RefinementCtx): void {
  for (const [a, b] of PAIRS) {
    if ((c[a] === undefined) !== (c[b] === undefined)) {
      const missing = c[a] === undefined ? a : b;
      ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is required with ${missing === a ? b : a}` });
    }
  }
}
