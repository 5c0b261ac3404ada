import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Express, type Response } from 'express';

/**
 * The console talks only to this origin's API, runs only its own scripts and styles, and is never framed. Style
 * attributes set from script (charts) go through the CSSOM, which `style-src 'self'` allows; inline `<style>` and
 * `<script>` never run. The camera is the door page's; nothing else asks for a device.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function setSecurityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Permissions-Policy', 'camera=(self), microphone=(), geolocation=()');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

/** Where the console's build is: `packages/console/dist`, made by `pnpm install` (its `prepare`) or `pnpm build`. */
export function consoleDistDir(): string | null {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@svc/console/package.json')), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : null;
  } catch {
    return null;
  }
}

const missingBuild = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Svc console</title></head>
<body><h1>The console is not built</h1><p>Run <code>pnpm build</code> (or <code>pnpm install</code>) and start the server again.</p></body></html>`;

/**
 * `/console`: the built single-page app. Hashed assets are kept a year; every other path under `/console` is a
 * route of the app and answers its `index.html`, never cached, so a deploy is seen at the next load.
 */
export function mountConsole(app: Express, dir: string | null = consoleDistDir()): void {
  const index = dir ? readFileSync(join(dir, 'index.html'), 'utf8') : undefined;
  app.use('/console', (_req, res, next) => {
    setSecurityHeaders(res);
    next();
  });
  if (dir) {
    app.use('/console/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: false }));
    app.use('/console', express.static(dir, { index: false, maxAge: 0, redirect: false }));
  }
  app.get(['/console', '/console/{*rest}'], (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    if (!index) return res.status(503).type('html').send(missingBuild);
    res.type('html').send(index);
  });
}
