// A tenant's server after a viewer paid: create a live stream, grant the viewer access to it, and sign
// the customer token their browser will use to watch.
//
//   SVC_API_KEY=sk_test_… SVC_BASE_URL=http://127.0.0.1:4000 pnpm --filter @svc/examples grant-and-sign
import { Svc } from '@svc/sdk-node';
import { env } from './env';

export async function grantAndSign(svc: Svc, viewer: string) {
  const stream = await svc.streams.liveStreams.create({ metadata: { show: 'launch-night' } });
  const entitlement = await svc.access.entitlements.grant(
    { customer: viewer, resource: { type: 'ls', id: stream.id }, source: 'payment', source_ref: `order-${Date.now()}`, limits: { max_devices: 2 } },
    { idempotencyKey: `grant-${viewer}-${stream.id}` },
  );
  const key = await svc.access.customerTokenKeys.create({ name: 'example' });
  const token = await svc.customerTokens.sign({ keyId: key.id, secret: key.secret!, sub: viewer, ttlSeconds: 600 });
  return { stream, entitlement, key, token };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const svc = new Svc({ apiKey: env('SVC_API_KEY'), baseUrl: env('SVC_BASE_URL', 'http://127.0.0.1:4000') });
  const { stream, entitlement, token } = await grantAndSign(svc, 'viewer-42');
  process.stdout.write(`${JSON.stringify({ stream: stream.id, entitlement: entitlement.id, status: entitlement.status, customer_token: token }, null, 2)}\n`);
}
