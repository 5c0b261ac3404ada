import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { appPrototypes, type AppPrototypes } from './app-prototypes';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server made with the classes; each request's prototypes as Node made them, before any handler. */
async function serve(classes: AppPrototypes) {
  const seen: { req: unknown; res: unknown }[] = [];
  server = createServer({ IncomingMessage: classes.Request, ServerResponse: classes.Response });
  server.prependListener('request', (req, res) => seen.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { seen, url, server };
}

describe('appPrototypes', () => {
  it('makes requests and responses with the app prototypes, so Express changes none', async () => {
    const classes = appPrototypes();
    const { seen, url, server } = await serve(classes);
    server.on('request', (_req, res) => res.end('not ready'));
    expect(await (await fetch(`${url}/`)).text()).toBe('not ready');
    expect(seen[0]).toEqual({ req: classes.Request.prototype, res: classes.Response.prototype });
    expect(Object.getPrototypeOf(classes.Request.prototype)).toBe(IncomingMessage.prototype);
    expect(Object.getPrototypeOf(classes.Response.prototype)).toBe(ServerResponse.prototype);

    const app = express();
    const { request: appRequest, response: appResponse } = app;
    app.post('/echo', express.json(), (req, res) => {
      res.status(201).json({ body: req.body, sameApp: req.app === app && res.app === app, header: req.get('x-test'), isRequest: req instanceof IncomingMessage });
    });
    classes.use(app);
    server.removeAllListeners('request');
    server.prependListener('request', (req, res) => seen.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }));
    server.on('request', app);
    const res = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ body: { a: 1 }, sameApp: true, header: 'yes', isRequest: true });
    // Express's own prototypes are still in the chain (`req.app`, `res.json` above), behind the classes'.
    expect(seen[1]!.req).toBe(app.request);
    expect(seen[1]!.res).toBe(app.response);
    expect(app.request).toBe(classes.Request.prototype);
    expect(Object.getPrototypeOf(app.request)).toBe(appRequest);
    expect(Object.getPrototypeOf(app.response)).toBe(appResponse);
  });

  it('keeps the app prototypes for every request of a keep-alive connection', async () => {
    const classes = appPrototypes();
    const app = express();
    let n = 0;
    app.get('/n', (_req, res) => res.json({ n: ++n }));
    classes.use(app);
    const { seen, url, server } = await serve(classes);
    server.on('request', app);
    for (let i = 1; i <= 3; i++) expect(await (await fetch(`${url}/n`)).json()).toEqual({ n: i });
    expect(seen.every((s) => s.req === app.request && s.res === app.response)).toBe(true);
  });
});
