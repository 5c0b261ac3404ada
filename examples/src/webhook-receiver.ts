// Receives webhooks on this machine and checks each signature before trusting it. Registers itself as a
// test-mode endpoint (test mode accepts http:// on loopback), prints every verified event, and skips
// duplicates by event id (deliveries are at least once).
//
//   SVC_API_KEY=sk_test_… pnpm --filter @svc/examples webhook-receiver
import express, { type Express } from 'express';
import { Svc, WebhookVerificationError } from '@svc/sdk-node';
import { env } from './env';

export function webhookApp(svc: Svc, secret: () => string, onEvent: (event: { id: string; type: string }) => void): Express {
  const seen = new Set<string>();
  const app = express();
  // The signature covers the exact bytes sent: take the body raw, never re-serialised JSON.
  app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
    try {
      const event = await svc.webhooks.constructEvent(req.body as Buffer, req.get('svc-signature'), secret());
      if (!seen.has(event.id)) {
        seen.add(event.id);
        onEvent(event);
      }
      res.sendStatus(204);
    } catch (err) {
      res.status(400).send(err instanceof WebhookVerificationError ? err.reason : 'bad request');
    }
  });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const svc = new Svc({ apiKey: env('SVC_API_KEY'), baseUrl: env('SVC_BASE_URL', 'http://127.0.0.1:4000') });
  let secret = '';
  const app = webhookApp(svc, () => secret, (event) => process.stdout.write(`${event.type} ${event.id}\n`));
  const server = app.listen(Number(process.env.PORT ?? 4100), '127.0.0.1', async () => {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`;
    const endpoint = await svc.webhookEndpoints.create({ url, enabled_events: ['*'], description: 'example receiver' });
    secret = endpoint.secret!;
    process.stdout.write(`Listening on ${url} as ${endpoint.id}; create a live stream to see an event.\n`);
  });
}
