import { ChannelFailure, transientFailure, type MessageChannel, type OutgoingMessage } from './message-channel';

export const AFRICASTALKING_API = 'https://api.africastalking.com';
export const AFRICASTALKING_SANDBOX_API = 'https://api.sandbox.africastalking.com';

/**
 * The per-recipient `statusCode`s of `POST /version1/messaging`: 100-102 taken (processed, sent, queued);
 * these refuse the number or the message for good, the rest (401 risk hold, 405 insufficient balance, 500-502
 * gateway errors) may work later.
 */
const PERMANENT: Record<number, string> = {
  402: 'invalid_sender_id',
  403: 'invalid_number',
  404: 'unsupported_number_type',
  406: 'recipient_blacklisted',
  407: 'could_not_route',
  409: 'do_not_disturb',
};
const TRANSIENT: Record<number, string> = { 401: 'risk_hold', 405: 'insufficient_balance', 500: 'provider_error', 501: 'gateway_error', 502: 'rejected_by_gateway' };

interface SendResponse {
  SMSMessageData?: { Message?: string; Recipients?: Array<{ statusCode: number; number: string; status: string; cost?: string; messageId?: string }> };
}

export interface AfricasTalkingSettings {
  username: string;
  apiKey: string;
  senderId?: string;
  apiUrl?: string;
  timeoutMs?: number;
}

/**
 * SMS through Africa's Talking's SMS API: a form `POST /version1/messaging` with the `apiKey` header, one
 * recipient per message. The provider id is the recipient's `messageId`, which the delivery reports carry.
 */
export function africasTalkingChannel(settings: AfricasTalkingSettings): MessageChannel {
  const base = settings.apiUrl ?? (settings.username === 'sandbox' ? AFRICASTALKING_SANDBOX_API : AFRICASTALKING_API);
  const endpoint = new URL('/version1/messaging', base);
  return {
    channel: 'sms',
    provider: 'africastalking',
    async send(message: OutgoingMessage) {
      const form = new URLSearchParams({ username: settings.username, to: message.to, message: message.body });
      if (settings.senderId) form.set('from', settings.senderId);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { apiKey: settings.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000),
        });
      } catch (err) {
        throw transientFailure(err);
      }
      const text = await res.text().catch(() => '');
      // Errors of the request itself come as plain text: 401 bad credentials, 400 a malformed request.
      if (res.status === 401 || res.status === 403) throw new ChannelFailure('provider_auth_failed', false, `africastalking ${res.status}: ${text.slice(0, 200)}`);
      if (res.status >= 400 && res.status < 500) throw new ChannelFailure('rejected', true, `africastalking ${res.status}: ${text.slice(0, 200)}`);
      if (!res.ok) throw new ChannelFailure('provider_error', false, `africastalking ${res.status}`);
      let parsed: SendResponse;
      try {
        parsed = JSON.parse(text) as SendResponse;
      } catch {
        throw new ChannelFailure('provider_error', false, 'africastalking: the answer is not JSON');
      }
      const recipient = parsed.SMSMessageData?.Recipients?.[0];
      if (!recipient) {
        // No recipient at all: the number was not one (`Message: "InvalidPhoneNumber"` or similar).
        const why = parsed.SMSMessageData?.Message ?? '';
        throw new ChannelFailure(/invalid/i.test(why) ? 'invalid_number' : 'rejected', true, `africastalking: ${why.slice(0, 200)}`);
      }
      if (recipient.statusCode >= 100 && recipient.statusCode <= 102 && recipient.messageId) return { providerId: recipient.messageId };
      const permanent = PERMANENT[recipient.statusCode];
      if (permanent) throw new ChannelFailure(permanent, true, `africastalking ${recipient.statusCode} ${recipient.status}`);
      throw new ChannelFailure(TRANSIENT[recipient.statusCode] ?? 'provider_error', false, `africastalking ${recipient.statusCode} ${recipient.status}`);
    },
  };
}
