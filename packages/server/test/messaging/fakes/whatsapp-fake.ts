import { createHmac } from 'node:crypto';
import { HttpFake, type FakeRequest } from './http-fake';

export const WA_PHONE_NUMBER_ID = '106540352242922';
export const WA_TOKEN = 'EAAG-test-token-0123456789';
export const WA_APP_SECRET = 'wa-app-secret-for-tests';
export const WA_VERIFY_TOKEN = 'verify-token-for-tests';

/** A number that is not on WhatsApp (Graph error 131026), and one that hits the rate limit (130429, retried). */
export const WA_NOT_ON_WHATSAPP = '+254711000026';
export const WA_RATE_LIMITED = '+254711000429';

const graphError = (status: number, code: number, message: string, details: string) => ({
  status,
  body: { error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details }, fbtrace_id: 'AbCdEf123' } },
});

let sequence = 0;

/**
 * A local WhatsApp Business Cloud API: `POST /v21.0/{phone-number-id}/messages` with a bearer token, template
 * messages only; the documented success answer (`contacts`, `messages[0].id`) and error bodies.
 */
export function whatsappFake(): HttpFake {
  return new HttpFake((req: FakeRequest) => {
    if (req.method !== 'POST' || req.path !== `/v21.0/${WA_PHONE_NUMBER_ID}/messages`) {
      return graphError(400, 100, 'Unsupported post request.', 'Object does not exist');
    }
    if (req.headers.authorization !== `Bearer ${WA_TOKEN}`) return graphError(401, 190, 'Error validating access token: Session has expired.', 'token');
    const body = JSON.parse(req.body) as { messaging_product?: string; to?: string; type?: string; template?: { name?: string } };
    if (body.messaging_product !== 'whatsapp' || body.type !== 'template' || !body.template?.name) {
      return graphError(400, 131009, '(#131009) Parameter value is not valid', 'template required');
    }
    if (`+${body.to}` === WA_NOT_ON_WHATSAPP) return graphError(400, 131026, 'Message undeliverable', 'Recipient is not a WhatsApp user');
    if (`+${body.to}` === WA_RATE_LIMITED) return graphError(429, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');
    const id = `wamid.HBgM${String(++sequence).padStart(6, '0')}${Date.now().toString(36)}`;
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] } };
  });
}

/** A status webhook notification as WhatsApp posts it, and its `X-Hub-Signature-256`. */
export function statusNotification(statuses: Array<{ id: string; status: string; errors?: Array<{ code: number; title: string }>; biz_opaque_callback_data?: string }>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: WA_PHONE_NUMBER_ID },
              statuses: statuses.map((s) => ({ timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '254711000001', ...s })),
            },
          },
        ],
      },
    ],
  };
}

export const hubSignature = (raw: string, secret = WA_APP_SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
