import { videoNetworksPart } from '../../src/modules/streams';
import { DEFAULT_API_OPTIONS } from '../../src/modules/streams/network/external/provider-api';
import type { TestServer } from '../harness';
import { FakeVideoAccount } from './fake-video-account';
import { client, expectStatus } from './media-fixtures';

export const WEBHOOK_SECRET = 'whsec-of-the-account-0123456789';
export const NOTIFICATION_SECRET = 'notification-channel-secret-42';

/** Points the server's own-account adapter at the fake, with short backoff so retries take milliseconds. */
export function useFakeAccountApi(t: TestServer, fake: FakeVideoAccount): void {
  videoNetworksPart.of(t.ctx).accounts!.apiOptions = { ...DEFAULT_API_OPTIONS, baseUrl: fake.url, backoffMs: 2, timeoutMs: 2000 };
}

/** The body that registers the fake's account. */
export const configBody = (fake: FakeVideoAccount, over: Record<string, unknown> = {}) => ({
  provider: 'cloudflare',
  account_id: fake.accountId,
  customer_code: 'abc123code',
  api_token: fake.token,
  signing_key: { id: fake.signingKey.id, pem: fake.signingKey.pem },
  webhook_secret: WEBHOOK_SECRET,
  notification_secret: NOTIFICATION_SECRET,
  ...over,
});

/** Registers the fake's account with `key` and chooses it for new live-mode objects; returns the configuration. */
export async function useOwnAccount(t: TestServer, key: string, fake: FakeVideoAccount) {
  const api = client(t, key);
  const config = expectStatus(await api.post('/v1/streams/provider_configs', configBody(fake)), 201).data;
  expectStatus(await api.patch('/v1/streams/settings', { live_network: config.id }), 200);
  return config as Record<string, any>;
}

export { FakeVideoAccount };
