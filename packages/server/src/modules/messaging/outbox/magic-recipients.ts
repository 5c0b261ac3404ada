import type { MessageChannelName } from '@svc/contract';

/**
 * Test-mode recipients that fail on purpose, so a tenant can see what its users would: the message is
 * `captured`, then fails as a live one would. The SMS number fails on any channel, the WhatsApp one only there.
 */
const MAGIC: Array<{ to: string; channels: readonly MessageChannelName[]; errorCode: string; after: 'refusal' | 'bounce' }> = [
  { to: '+254799000001', channels: ['sms', 'whatsapp'], errorCode: 'invalid_number', after: 'refusal' },
  { to: '+254799000002', channels: ['whatsapp'], errorCode: 'not_on_whatsapp', after: 'refusal' },
  { to: 'bounce@example.com', channels: ['email'], errorCode: 'bounced', after: 'bounce' },
];

export function magicFailure(channel: MessageChannelName, to: string): { errorCode: string; after: 'refusal' | 'bounce' } | undefined {
  const found = MAGIC.find((m) => m.to === to.toLowerCase() && m.channels.includes(channel));
  return found && { errorCode: found.errorCode, after: found.after };
}
