import { HttpFake, type FakeRequest } from './http-fake';

export const AT_USERNAME = 'svc-test';
export const AT_API_KEY = 'atsk_0123456789abcdef0123456789abcdef';

/** Numbers the fake answers with a per-recipient failure, as Africa's Talking documents them. */
export const AT_INVALID = '+254700000403';
export const AT_NO_BALANCE = '+254700000405';

let sequence = 0;

/**
 * A local Africa's Talking SMS API: `POST /version1/messaging` (form: username, to, message, from) with the
 * `apiKey` header; the documented `SMSMessageData` answer, per-recipient status codes, and the plain-text
 * `401` for a bad key.
 */
export function africasTalkingFake(): HttpFake {
  return new HttpFake((req: FakeRequest) => {
    if (req.method !== 'POST' || req.path !== '/version1/messaging') return { status: 404, body: 'Not Found' };
    if (req.headers.apikey !== AT_API_KEY) return { status: 401, body: 'The supplied authentication is invalid' };
    const form = new URLSearchParams(req.body);
    if (form.get('username') !== AT_USERNAME) return { status: 401, body: 'The supplied authentication is invalid' };
    if (!form.get('to') || !form.get('message')) return { status: 400, body: 'Must have to and message' };
    const to = form.get('to')!;
    const recipient = (statusCode: number, status: string, messageId = 'None', cost = '0') => ({ statusCode, number: to, status, cost, messageId });
    if (to === AT_INVALID) {
      return { status: 201, body: { SMSMessageData: { Message: 'Sent to 0/1 Total Cost: 0', Recipients: [recipient(403, 'InvalidPhoneNumber')] } } };
    }
    if (to === AT_NO_BALANCE) {
      return { status: 201, body: { SMSMessageData: { Message: 'Sent to 0/1 Total Cost: 0', Recipients: [recipient(405, 'InsufficientBalance')] } } };
    }
    const id = `ATXid_${String(++sequence).padStart(8, '0')}${Date.now().toString(16)}`;
    return { status: 201, body: { SMSMessageData: { Message: 'Sent to 1/1 Total Cost: KES 0.8000', Recipients: [recipient(101, 'Success', id, 'KES 0.8000')] } } };
  });
}

/** The accepted sends of the fake: what a phone would have received. */
export const smsSentTo = (fake: HttpFake, to: string) =>
  fake.requests.map((r) => new URLSearchParams(r.body)).filter((f) => f.get('to') === to && to !== AT_INVALID && to !== AT_NO_BALANCE);
