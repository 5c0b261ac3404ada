// Serves the player page (player/), the live show's event page (/show) and the built browser SDK. The pages talk
// to the tenant server (TENANT_SERVER_URL) for its config (and the player's ticket and customer token), and to Svc
// with the publishable key.
//
//   TENANT_SERVER_URL=http://127.0.0.1:4100 pnpm --filter @svc/examples player
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';

const here = dirname(fileURLToPath(import.meta.url));
// The built ES module of the browser SDK, as a page loads it.
const sdkBrowser = fileURLToPath(import.meta.resolve('@svc/sdk-browser'));
// hls.js's ES module build, for the live player page.
const hlsJs = join(dirname(fileURLToPath(import.meta.resolve('hls.js'))), 'hls.mjs');

export function playerServer(tenantServerUrl: string): Express {
  const app = express();
  app.get('/', (_req, res) => {
    const page = readFileSync(join(here, '../player/index.html'), 'utf8');
    res.type('html').send(page.replace('<head>', `<head>\n  <meta name="tenant-server" content="${tenantServerUrl}">`));
  });
  app.get('/player.js', (_req, res) => res.type('js').send(readFileSync(join(here, '../player/player.js'))));
  app.get('/live', (_req, res) => {
    const page = readFileSync(join(here, '../player/live.html'), 'utf8');
    res.type('html').send(page.replace('<head>', `<head>\n  <meta name="tenant-server" content="${tenantServerUrl}">`));
  });
  app.get('/live-player.js', (_req, res) => res.type('js').send(readFileSync(join(here, '../player/live-player.js'))));
  app.get('/show', (_req, res) => {
    const page = readFileSync(join(here, '../player/show.html'), 'utf8');
    res.type('html').send(page.replace('<head>', `<head>\n  <meta name="tenant-server" content="${tenantServerUrl}">`));
  });
  app.get('/show.js', (_req, res) => res.type('js').send(readFileSync(join(here, '../player/show.js'))));
  app.get('/hls.mjs', (_req, res) => res.type('js').send(readFileSync(hlsJs)));
  app.get('/sdk-browser.js', (_req, res) => res.type('js').send(readFileSync(sdkBrowser)));
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 4200);
  playerServer(process.env.TENANT_SERVER_URL ?? 'http://127.0.0.1:4100').listen(port, '127.0.0.1', () =>
    process.stdout.write(`Player page: http://127.0.0.1:${port}/\n`),
  );
}
