import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, mountConsole } from '../../src/modules/platform/console/console.routes';
import { useTestServer } from '../harness';

const t = useTestServer();

/** A built console in a temporary folder: the page and one hashed asset. */
function builtConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Svc console</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'sw.js'), 'self.x = 1');
  return dir;
}

describe('/console', () => {
  it('answers the app for every route under /console, with a strict CSP and no caching of the page', async () => {
    const app = express();
    mountConsole(app, builtConsole());
    for (const path of ['/console', '/console/', '/console/developers/keys', '/console/door?event=x']) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
  });

  it('keeps hashed assets a year, serves the service worker, and answers 404 for a missing asset', async () => {
    const app = express();
    mountConsole(app, builtConsole());
    const asset = await request(app).get('/console/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await request(app).get('/console/sw.js')).text).toBe('self.x = 1');
    expect((await request(app).get('/console/assets/missing.js')).status).toBe(404);
  });

  it('says how to build it when the build is missing', async () => {
    const app = express();
    mountConsole(app, null);
    const res = await request(app).get('/console/');
    expect(res.status).toBe(503);
    expect(res.text).toContain('pnpm build');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
  });

  it('is served by the API server with its headers', async () => {
    const res = await t.http().get('/console/');
    expect([200, 503]).toContain(res.status);
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
  });
});
