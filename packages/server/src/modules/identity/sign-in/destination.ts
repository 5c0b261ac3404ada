import type { MessageChannelName } from '@svc/contract';
import { ApiError } from '../../../core/errors';

/** Where a code goes: a phone (E.164) or an email (lower case). */
export interface Destination {
  kind: 'phone' | 'email';
  value: string;
  /** `phone:+2547…` / `email:a@b.c`: the key of limits and challenges. */
  key: string;
}

export function destinationOf(input: { phone?: string; email?: string }): Destination {
  if ((input.phone === undefined) === (input.email === undefined)) {
    throw ApiError.of('invalid_request', { message: 'Send exactly one of `phone` and `email`.', param: input.phone ? 'email' : 'phone' });
  }
  if (input.phone !== undefined) return { kind: 'phone', value: input.phone, key: `phone:${input.phone}` };
  const email = input.email!.trim().toLowerCase();
  return { kind: 'email', value: email, key: `email:${email}` };
}

/** `sms` for a phone and `email` for an email by default; `whatsapp` is allowed for a phone. */
export function channelFor(destination: Destination, channel: MessageChannelName | undefined): MessageChannelName {
  const chosen = channel ?? (destination.kind === 'phone' ? 'sms' : 'email');
  const fits = destination.kind === 'phone' ? chosen === 'sms' || chosen === 'whatsapp' : chosen === 'email';
  if (!fits) throw ApiError.of('invalid_request', { message: `A ${destination.kind} cannot receive a code by ${chosen}.`, param: 'channel' });
  return chosen;
}
