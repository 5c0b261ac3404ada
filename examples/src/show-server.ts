// The tenant's server for the live show: its webhook receiver, and the config the event page reads.
// - POST /webhooks  checks every delivery with @svc/webhook-verify against the endpoint's secret (the raw body,
//                   as sent) before it counts; deliveries are at least once, so a repeated event id is skipped;
// - GET /config     the publishable key and the API's address, for the event page on its own origin.
import express, { type Express } from 'express';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@svc/webhook-verify';

export interface ShowServer {
  app: Express;
  /** The endpoint's `whsec_…` secret, set once the endpoint is registered (`setUpTenant`). */
  webhookSecret: string;
  /** Verified events, once each, in the order they arrived. */
  verified: WebhookEvent[];
  /** Why each refused delivery was refused (`no_matching_signature`, …). */
  refused: string[];
}

export function showServer(config: { publishableKey: string; apiBaseUrl: string }): ShowServer {
  const app = express();
  const server: ShowServer = { app, webhookSecret: '', verified: [], refused: [] };
  const seen = new Set<string>();

  // The event page lives on another origin.
  app.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', req.get('origin') ?? '*');
    next();
  });

  // Before any JSON parser: the signature covers the exact bytes sent.
  app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
    try {
      const event = await verifyWebhook(req.body as Buffer, req.get('svc-signature'), server.webhookSecret);
      if (!seen.has(event.id)) {
        seen.add(event.id);
        server.verified.push(event);
      }
      res.sendStatus(204);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      server.refused.push(err.reason);
      res.status(400).send(err.reason);
    }
  });

  app.get('/config', (_req, res) => res.json(config));
  return server;
}
