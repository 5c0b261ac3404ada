import { createPrivateKey, type KeyObject } from 'node:crypto';
import { VideoNetworkRejection } from '../video-network';

/** What a tenant gives for its own account; everything but the ids and the customer code is secret. */
export interface AccountCredentials {
  configId: string;
  accountId: string;
  customerCode: string;
  apiToken: string;
  signingKey: { id: string; pem: string };
  webhookSecret: string;
  notificationSecret: string;
}

/** The signing key's private half from the base64 PEM the provider hands out; a refusal names the field. */
export function signingKeyObject(pemBase64: string): KeyObject {
  try {
    const text = pemBase64.includes('-----BEGIN') ? pemBase64 : Buffer.from(pemBase64, 'base64').toString('utf8');
    const key = createPrivateKey(text);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return key;
  } catch {
    throw new VideoNetworkRejection('The signing key `pem` is not a base64-encoded RSA private key in PEM form.', 'signing_key.pem');
  }
}
