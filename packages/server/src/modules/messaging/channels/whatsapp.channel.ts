import { ChannelFailure, transientFailure, type MessageChannel, type OutgoingMessage } from './message-channel';

/** Graph API error codes that refuse the recipient or the message for good; the rest may work later. */
const PERMANENT: Record<number, string> = {
  131026: 'not_on_whatsapp',
  131030: 'recipient_not_allowed',
  131021: 'invalid_number',
  131047: 'outside_service_window',
  131051: 'rejected',
  131008: 'rejected',
  131009: 'rejected',
  100: 'rejected',
  132000: 'template_rejected',
  132001: 'template_rejected',
  132005: 'template_rejected',
  132007: 'template_rejected',
  132012: 'template_rejected',
  132015: 'template_rejected',
  132016: 'template_rejected',
};
/** Retried, but named: the operator should see a bad token or a rate limit rather than a generic error. */
const TRANSIENT: Record<number, string> = { 190: 'provider_auth_failed', 10: 'provider_auth_failed', 200: 'provider_auth_failed', 130429: 'provider_rate_limited', 131056: 'provider_rate_limited', 131048: 'provider_rate_limited' };

export function whatsappErrorCode(code: number | undefined): { code: string; permanent: boolean } {
  if (code !== undefined && PERMANENT[code]) return { code: PERMANENT[code]!, permanent: true };
  return { code: (code !== undefined && TRANSIENT[code]) || 'provider_error', permanent: false };
}

export interface WhatsAppSettings {
  phoneNumberId: string;
  accessToken: string;
  apiUrl: string;
  authTemplate: string;
  utilityTemplate: string;
  language: string;
  timeoutMs?: number;
}

interface GraphError {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; error_data?: { details?: string }; fbtrace_id?: string };
}

/** WhatsApp template parameters take no line breaks, tabs or runs of 4+ spaces, and at most 1024 characters. */
const templateText = (s: string) => s.replace(/[\n\t]+/g, ' · ').replace(/ {4,}/g, '   ').slice(0, 1024);

/**
 * The request body: a code goes as the authentication template (its body and copy-code button both take
 * the code), everything else as the utility template with the text as its one body parameter. The message id
 * rides in `biz_opaque_callback_data`, which status webhooks carry back.
 */
export function whatsappPayload(settings: WhatsAppSettings, message: OutgoingMessage) {
  const code = message.params.code;
  const template = code
    ? {
        name: settings.authTemplate,
        language: { code: settings.language },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: code }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
        ],
      }
    : {
        name: settings.utilityTemplate,
        language: { code: settings.language },
        components: [{ type: 'body', parameters: [{ type: 'text', text: templateText(message.body) }] }],
      };
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    template,
    biz_opaque_callback_data: message.id,
  };
}

/**
 * The WhatsApp Business Cloud API: `POST {version}/{phone-number-id}/messages` with a bearer token. The
 * provider id is the answer's `messages[0].id` (`wamid.…`), which status webhooks carry.
 */
export function whatsappChannel(settings: WhatsAppSettings): MessageChannel {
  const endpoint = `${settings.apiUrl.replace(/\/$/, '')}/${settings.phoneNumberId}/messages`;
  return {
    channel: 'whatsapp',
    provider: 'whatsapp',
    async send(message: OutgoingMessage) {
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${settings.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(whatsappPayload(settings, message)),
          signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000),
        });
      } catch (err) {
        throw transientFailure(err);
      }
      const body = (await res.json().catch(() => ({}))) as GraphError & { messages?: Array<{ id?: string }> };
      if (res.ok && body.messages?.[0]?.id) return { providerId: body.messages[0].id };
      if (res.status >= 500 && !body.error) throw new ChannelFailure('provider_error', false, `whatsapp ${res.status}`);
      const { code, permanent } = whatsappErrorCode(body.error?.code);
      throw new ChannelFailure(code, permanent, `whatsapp ${res.status} (#${body.error?.code ?? '?'}) ${body.error?.message ?? ''}`.slice(0, 300));
    },
  };
}
