import { verifyWebhook, type RawBody, type VerifyOptions } from '@svc/webhook-verify';
import type { SvcEvent } from './contract-types';

/**
 * Checks a webhook delivery and returns its event, typed by `type` (`switch (event.type)` narrows
 * `event.data.object`). Pass the body exactly as received (a string or bytes, e.g.
 * `express.raw({type: 'application/json'})`), the `Svc-Signature` header and the endpoint's secret (or both
 * secrets while rolling). Throws `WebhookVerificationError` with a `reason`.
 */
export function constructEvent(
  rawBody: RawBody,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
  options?: VerifyOptions,
): Promise<SvcEvent> {
  return verifyWebhook(rawBody, signatureHeader, secret, options) as Promise<SvcEvent>;
}
