import nodemailer, { type Transporter } from 'nodemailer';
import { fromWithSender, renderEmail } from './email-template';
import { ChannelFailure, transientFailure, type MessageChannel, type OutgoingMessage } from './message-channel';

/** SMTP reply codes that refuse the recipient or the message for good (RFC 5321 5yz; 552 and 554 included). */
const permanentCode = (responseCode: number | undefined) => responseCode !== undefined && responseCode >= 500 && responseCode < 600;

/** The `Message-ID` of a message: the same on every try, so a repeated send is recognisable as one email. */
export function messageIdOf(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'svc.local';
  return `<${id}@${domain}>`;
}

/**
 * Email through any SMTP server, with nodemailer. The provider id is the `Message-ID`. A 5xx reply for the
 * recipient (`550 no such user`) fails the message at once as `unknown_recipient`, another 5xx as `rejected`;
 * a 4xx reply, a refused connection or a timeout is tried again.
 */
export function smtpChannel(url: string, from: string): MessageChannel {
  const transport: Transporter = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    channel: 'email',
    provider: 'smtp',
    async send(message: OutgoingMessage, idempotencyKey: string) {
      const { subject, text, html } = renderEmail(message);
      const messageId = messageIdOf(idempotencyKey, from);
      try {
        const info = await transport.sendMail({ from: fromWithSender(from, message.brand), to: message.to, subject, text, html, messageId });
        if (info.rejected.length > 0) throw new ChannelFailure('unknown_recipient', true, `recipient refused: ${info.response}`);
        return { providerId: messageId };
      } catch (err) {
        if (err instanceof ChannelFailure) throw err;
        const e = err as { responseCode?: number; command?: string; response?: string; message?: string };
        if (permanentCode(e.responseCode)) {
          const recipient = e.command === 'RCPT TO' || /recipient|mailbox|user/i.test(e.response ?? '');
          throw new ChannelFailure(recipient ? 'unknown_recipient' : 'rejected', true, `smtp ${e.responseCode}: ${e.response ?? ''}`);
        }
        if (e.responseCode) throw new ChannelFailure('provider_error', false, `smtp ${e.responseCode}: ${e.response ?? ''}`);
        throw transientFailure(err);
      }
    },
    close: () => transport.close(),
  };
}
