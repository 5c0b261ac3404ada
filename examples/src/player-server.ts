// The tenant's web server for the player page: serves the page and the browser SDK, and signs a customer
// token for the signed-in viewer (here always `viewer-42`). Creates a stream and grants the viewer first.
//
//   SVC_API_KEY=sk_test_… SVC_PUBLISHABLE_KEY=pk_test_… pnpm --filter @svc/examples player
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { Svc } from '@svc/sdk-node';
import { env } from './env';
import { grantAndSign } from './grant-and-sign';

const here = dirname(fileURLToPath(import.meta.url));
// The built ES module of the browser SDK, as a page loads it.
const sdkBrowser = fileURLToPath(import.meta.resolve('@svc/sdk-browser'));

export async function playerApp(options: { apiKey: string; publishableKey: string; apiBaseUrl: string; viewer?: string }): Promise<{ app: Express; stream: { id: string }; svc: Svc }> {
  const svc = new Svc({ apiKey: options.apiKey, baseUrl: options.apiBaseUrl });
  const viewer = options.viewer ?? 'viewer-42';
  const { stream, key } = await grantAndSign(svc, viewer);
  const app = express();
  app.get('/', (_req, res) => res.type('html').send(readFileSync(join(here, '../player/index.html'))));
  app.get('/player.js', (_req, res) => res.type('js').send(readFileSync(join(here, '../player/player.js'))));
  app.get('/sdk-browser.js', (_req, res) => res.type('js').send(readFileSync(sdkBrowser)));
  app.get('/config', (_req, res) => {
    res.json({ publishableKey: options.publishableKey, apiBaseUrl: options.apiBaseUrl, streamId: stream.id });
  });
  // In a real site this checks the viewer's own session first.
  app.post('/token', async (_req, res) => {
    res.json({ token: await svc.customerTokens.sign({ keyId: key.id, secret: key.secret!, sub: viewer, ttlSeconds: 600 }) });
  });
  return { app, stream, svc };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { app } = await playerApp({
    apiKey: env('SVC_API_KEY'),
    publishableKey: env('SVC_PUBLISHABLE_KEY'),
    apiBaseUrl: env('SVC_BASE_URL', 'http://127.0.0.1:4000'),
  });
  const port = Number(process.env.PORT ?? 4200);
  app.listen(port, '127.0.0.1', () => process.stdout.write(`Player page: http://127.0.0.1:${port}/\n`));
}
