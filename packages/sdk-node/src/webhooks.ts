import { verifyWebhook, type RawBody, type VerifyOptions, type WebhookEvent } from '@svc/webhook-verify';

/**
 * Checks a webhook delivery and returns its event. Pass the body exactly as received (a string or bytes,
 * e.g. `express.raw({type: 'application/json'})`), the `Svc-Signature` header and the endpoint's secret
 * (or both secrets while rolling). Throws `WebhookVerificationError` with a `reason`.
 */
export function constructEvent<T = Record<string, unknown>>(
  rawBody: RawBody,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
  options?: VerifyOptions,
): Promise<WebhookEvent<T>> {
  return verifyWebhook<T>(rawBody, signatureHeader, secret, options);
}
