import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { appPrototypes } from '../core/app-prototypes';
import { ApiError } from '../core/errors';
import { newId } from '../core/ids';
import { createApp } from '../app';
import { createContext, type ServerConfig } from './context';
import type { AppContext } from '../core/context';
import { migrateToLatest } from '../db/migrate';
import { checkEncryptionKey } from '../core/encryption-key-check';
import { purgeIdempotencyKeysJob } from '../jobs/purge-idempotency-keys.job';

export interface RunningServer {
  ctx: AppContext;
  server: Server;
  url: string;
  /** Stops taking requests, lets running requests and jobs finish (up to the shutdown timeout), then closes connections. */
  stop: () => Promise<void>;
}

export async function startServer(
  config: ServerConfig,
  log: Logger,
): Promise<RunningServer> {
  // Listen first: with PORT=0 the port, and so the base URL in links, is known only then. Until the app
  // is ready, requests are told to come back.
  const notReady = (_req: IncomingMessage, res: ServerResponse) => {
    const requestId = newId('request');
    const body = ApiError.of('service_unavailable', { message: 'The server is starting.' }).toBody(requestId, config.baseUrl);
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', 'request-id': requestId });
    res.end(JSON.stringify(body));
  };
  const classes = appPrototypes();
  const server = createServer({ IncomingMessage: classes.Request, ServerResponse: classes.Response }, notReady);
  // Requests Node cannot even parse (a bad Content-Length, a broken request line) still get the error shape.
  server.on('clientError', (_err, socket) => {
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify(ApiError.of('invalid_request', { message: 'The request is not valid HTTP.' }).toBody(newId('request'), config.baseUrl));
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  if (!config.PUBLIC_BASE_URL) config.baseUrl = url;

  const { ctx, listener } = await createContext(config, log);
  const { db, jobs } = ctx;
  try {
    await migrateToLatest(db);
    await checkEncryptionKey(db, ctx.secrets);
  } catch (err) {
    await listener.stop();
    await db.destroy();
    server.close();
    throw err;
  }
  jobs.wakeOn(listener);
  jobs.register(purgeIdempotencyKeysJob(db));

  // Every module's jobs and workers are registered once the context exists; workers start after every registration.
  const workers = ctx.modules.flatMap((m) => (m.worker ? [m.worker(ctx)] : []));
  for (const m of ctx.modules) for (const job of m.jobs?.(ctx) ?? []) jobs.register(job);
  for (const w of workers) for (const job of w.jobs ?? []) jobs.register(job);
  await jobs.start();
  for (const w of workers) await w.start({ url });
  const app = createApp(ctx);
  classes.use(app);
  server.off('request', notReady);
  server.on('request', app);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      ctx.state.shuttingDown = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A keep-alive connection whose request finishes during the drain would otherwise stay open until it times out.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const force = setTimeout(() => server.closeAllConnections(), config.SVC_SHUTDOWN_TIMEOUT_MS);
      await closed;
      clearInterval(sweep);
      clearTimeout(force);
      for (const w of workers) await w.stop();
      await jobs.stop(config.SVC_SHUTDOWN_TIMEOUT_MS);
      for (const w of workers) w.close?.();
      await listener.stop();
      await db.destroy();
    })());
  return { ctx, server, url, stop };
}
