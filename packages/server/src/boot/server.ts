import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { appPrototypes } from '../core/app-prototypes';
import { ApiError } from '../core/errors';
import { newId } from '../core/ids';
import { createApp } from '../app';
import { createContext, type ServerConfig } from './context';
import type { AppContext } from '../core/context';
import { migrateToLatest, pendingMigrations } from '../db/migrate';
import { checkEncryptionKey } from '../core/encryption-key-check';
import { backgroundJobs } from './background-jobs';
import { answerHealth, type Readiness } from './health';
import { planOf, type RolePlan } from './roles';

export interface RunningServer {
  ctx: AppContext;
  server: Server;
  url: string;
  plan: RolePlan;
  /** Stops taking requests, lets running requests and jobs finish (up to the shutdown timeout), then closes connections. */
  stop: () => Promise<void>;
}

/** Refuses to run on a database this build has not migrated: only `all` migrates on start. */
async function checkMigrated(ctx: AppContext, plan: RolePlan): Promise<void> {
  if (plan.migrates) return migrateToLatest(ctx.db);
  const pending = await pendingMigrations(ctx.db);
  if (pending.length === 0) return;
  throw new Error(
    `The database is not migrated: ${pending.length} migration(s) pending, the first ${pending[0]}. ` +
      `Run \`svc migrate\` with the same DATABASE_URL first (SVC_ROLE=${plan.role} does not migrate on start).`,
  );
}

/** A worker's port: the health checks only. */
function notServed(res: ServerResponse, plan: RolePlan, baseUrl: string): void {
  const requestId = newId('request');
  const message = `This process runs the ${plan.role} role: it answers only /health/live and /health/ready.`;
  res.writeHead(404, { 'content-type': 'application/json', 'request-id': requestId });
  res.end(JSON.stringify(ApiError.of('route_not_found', { message }).toBody(requestId, baseUrl)));
}

export async function startServer(config: ServerConfig, log: Logger, plan: RolePlan = planOf(config.SVC_ROLE)): Promise<RunningServer> {
  let readiness: Readiness = 'starting';
  const ready = () => readiness;
  // Listen first: with PORT=0 the port, and so the base URL in links, is known only then. Until the app
  // is ready, requests are told to come back.
  const notReady = (req: IncomingMessage, res: ServerResponse) => {
    if (answerHealth(req, res, plan.role, ready)) return;
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

  const { ctx, listener } = await createContext(config, log, 10, undefined, plan.places);
  const { db, jobs } = ctx;
  try {
    await checkMigrated(ctx, plan);
    await checkEncryptionKey(db, ctx.secrets);
  } catch (err) {
    await listener.stop();
    await db.destroy();
    server.close();
    throw err;
  }
  jobs.wakeOn(listener);
  const { workers, definitions } = backgroundJobs(ctx, plan);
  for (const job of definitions) jobs.register(job);
  await jobs.start();
  for (const w of workers) await w.start({ url });
  if (plan.serves === 'app') {
    const app = createApp(ctx);
    classes.use(app);
    server.off('request', notReady);
    server.on('request', (req, res) => answerHealth(req, res, plan.role, ready) || app(req, res));
  } else {
    server.off('request', notReady);
    server.on('request', (req, res) => answerHealth(req, res, plan.role, ready) || notServed(res, plan, config.baseUrl));
  }
  readiness = 'ready';

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      readiness = 'draining';
      ctx.state.shuttingDown = true;
      // Load balancers see the readiness check fail, and stop sending, before the port closes.
      if (config.SVC_DRAIN_DELAY_MS > 0) await new Promise((r) => setTimeout(r, config.SVC_DRAIN_DELAY_MS));
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
  return { ctx, server, url, plan, stop };
}
