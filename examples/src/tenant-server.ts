// A tenant's own server, the way a real site would use Svc with its own login and payments:
// - POST /checkout  a simulated payment grants the viewer the show (`source: payment`);
// - POST /token     signs a customer token for the viewer's browser;
// - POST /refund    revokes the viewer's entitlement (their player stops at its next heartbeat);
// - POST /webhooks  receives Svc's webhooks, checks each signature and skips duplicates by event id.
//
//   SVC_API_KEY=sk_test_… SVC_PUBLISHABLE_KEY=pk_test_… pnpm --filter @svc/examples tenant-server
import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { Svc, WebhookVerificationError, type WebhookEvent } from '@svc/sdk-node';
import { env } from './env';

export interface TenantServerOptions {
  apiKey: string;
  publishableKey: string;
  apiBaseUrl: string;
}

export interface TenantServer {
  app: Express;
  /**
   * Registers the webhook endpoint at `publicUrl/webhooks` (unless `webhooks: false`: live mode takes only
   * https endpoints), then creates the customer token key and the show.
   */
  setUp: (publicUrl: string, options?: { webhooks?: boolean }) => Promise<void>;
  received: WebhookEvent[];
}

export function tenantServer(options: TenantServerOptions): TenantServer {
  const svc = new Svc({ apiKey: options.apiKey, baseUrl: options.apiBaseUrl });
  const state = { streamId: '', tokenKey: { id: '', secret: '' }, webhookSecret: '' };
  const entitlements = new Map<string, string>();
  const received: WebhookEvent[] = [];
  const seen = new Set<string>();
  const app = express();

  // The player page lives on another origin.
  app.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', req.get('origin') ?? '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type');
    if (req.method === 'OPTIONS') return void res.sendStatus(204);
    next();
  });

  // Webhooks first, with the raw body: the signature covers the exact bytes sent.
  app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
    try {
      const event = await svc.webhooks.constructEvent(req.body as Buffer, req.get('svc-signature'), state.webhookSecret);
      if (!seen.has(event.id)) {
        seen.add(event.id);
        received.push(event);
      }
      res.sendStatus(204);
    } catch (err) {
      res.status(400).send(err instanceof WebhookVerificationError ? err.reason : 'bad request');
    }
  });
  app.use(express.json());

  app.get('/config', (_req, res) => {
    res.json({ publishableKey: options.publishableKey, apiBaseUrl: options.apiBaseUrl, streamId: state.streamId });
  });

  // A real site charges the card first; the payment id makes the grant safe to retry.
  app.post('/checkout', async (req, res) => {
    const viewer = String(req.body?.viewer ?? '');
    const payment = `pay_${randomUUID()}`;
    const entitlement = await svc.access.entitlements.grant(
      { customer: viewer, resource: { type: 'ls', id: state.streamId }, source: 'payment', source_ref: payment, limits: { max_devices: 3 } },
      { idempotencyKey: payment },
    );
    entitlements.set(viewer, entitlement.id);
    res.json({ entitlement: entitlement.id, status: entitlement.status });
  });

  // A real site signs only for the viewer signed in on its own session.
  app.post('/token', async (req, res) => {
    const viewer = String(req.body?.viewer ?? '');
    const token = await svc.customerTokens.sign({ keyId: state.tokenKey.id, secret: state.tokenKey.secret, sub: viewer, ttlSeconds: 600 });
    res.json({ token });
  });

  app.post('/refund', async (req, res) => {
    const id = entitlements.get(String(req.body?.viewer ?? ''));
    if (!id) return void res.status(404).json({ error: 'no such purchase' });
    res.json({ status: (await svc.access.entitlements.revoke({ id })).status });
  });

  app.get('/events', (_req, res) => {
    res.json(received.map((e) => ({ id: e.id, type: e.type })));
  });

  return {
    app,
    received,
    setUp: async (publicUrl, { webhooks = true } = {}) => {
      if (webhooks) {
        const endpoint = await svc.webhookEndpoints.create({ url: `${publicUrl}/webhooks`, enabled_events: ['access.entitlement.*', 'streams.live_stream.*', 'events.order.*'] });
        state.webhookSecret = endpoint.secret!;
      }
      const key = await svc.access.customerTokenKeys.create({ name: 'tenant-server' });
      state.tokenKey = { id: key.id, secret: key.secret! };
      state.streamId = (await svc.streams.liveStreams.create({ metadata: { show: 'launch-night' } })).id;
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = tenantServer({
    apiKey: env('SVC_API_KEY'),
    publishableKey: env('SVC_PUBLISHABLE_KEY'),
    apiBaseUrl: env('SVC_BASE_URL', 'http://127.0.0.1:4000'),
  });
  const port = Number(process.env.PORT ?? 4100);
  server.app.listen(port, '127.0.0.1', async () => {
    // Live mode takes only https webhook endpoints.
    await server.setUp(`http://127.0.0.1:${port}`, { webhooks: !env('SVC_API_KEY').startsWith('sk_live_') });
    process.stdout.write(`Tenant server on http://127.0.0.1:${port} (the player example points here)\n`);
  });
}
