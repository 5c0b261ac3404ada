import type { EffectiveBranding, MessageChannelName } from '@svc/contract';

/** A message on its way out, as a channel adapter takes it. */
export interface OutgoingMessage {
  id: string;
  channel: MessageChannelName;
  to: string;
  template: string;
  subject: string | null;
  body: string;
  /** What an approved template takes besides the text (`code` for an authentication template). */
  params: Record<string, string>;
  /** The brand the message was written with: an email's sender name, header and footer. */
  brand?: EffectiveBranding | null;
}

/** What the provider answered when it took the message. */
export interface SendReceipt {
  /** The provider's id of the message, which its delivery receipts carry. */
  providerId: string;
}

/**
 * A provider that delivers one channel in live mode. `send` resolves when the provider took the message and
 * throws a `ChannelFailure` when it did not; `idempotencyKey` (the message id, the same on every try) goes to
 * providers that take one. Operators add others (Twilio, …) with `registerMessageChannel`, without touching
 * the outbox.
 */
export interface MessageChannel {
  channel: MessageChannelName;
  /** The provider's name, as delivery callbacks name it in their path (`smtp`, `africastalking`, `whatsapp`). */
  provider: string;
  send(message: OutgoingMessage, idempotencyKey: string): Promise<SendReceipt>;
  close?(): void;
}

/**
 * A send that did not go through. `permanent`: the provider refused the recipient or the message itself
 * (invalid number, unknown mailbox) and a retry would be refused the same way; otherwise it may work later.
 * `code` is the message's `error_code`; `detail` is for the operator's log and never holds the body.
 */
export class ChannelFailure extends Error {
  constructor(
    readonly code: string,
    readonly permanent: boolean,
    readonly detail = code,
  ) {
    super(detail);
  }
}

/** A network fault or a timeout: the provider may not have seen the request, so it is tried again. */
export const transientFailure = (err: unknown): ChannelFailure =>
  err instanceof ChannelFailure ? err : new ChannelFailure('provider_unreachable', false, err instanceof Error ? err.message : String(err));
