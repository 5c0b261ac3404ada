// The two ceilings every scenario is compared with, served by a separate process so they are measured
// exactly like the Svc server: a bare Express JSON route, and an Express route doing one indexed
// `UPDATE … RETURNING` through pg. Like the Svc server, the process makes its requests and responses with the
// app's prototypes, which Express would otherwise set on each one at a cost larger than the rest of a bare request.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import express from 'express';
import pg from 'pg';
import { appPrototypes } from '../../server/src/core/app-prototypes';

// `CEILING_WORKERS` processes on one port, as `SVC_WORKERS` runs the server (node:cluster, round-robin).
const workers = Number(process.env.CEILING_WORKERS ?? 1);
const port = Number(process.env.PORT ?? 0);

/** The rows the write ceiling updates, made once, before any process serves. */
async function setUp() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  await pool.query('CREATE TABLE IF NOT EXISTS ceiling_rows (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0, seen_at timestamptz)');
  await pool.query('INSERT INTO ceiling_rows (id) SELECT g FROM generate_series(1, 1000) g ON CONFLICT DO NOTHING');
  await pool.end();
}

if (cluster.isPrimary) await setUp();
if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('message', (m: { url?: string }) => {
      if (m.url && ++listening === workers) process.stdout.write(`${JSON.stringify({ url: m.url })}\n`);
    });
  }
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
  });
} else {
  await serve();
}

async function serve() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

  const app = express();
  app.use(express.json());
  app.get('/json', (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/write', async (_req, res) => {
    const id = 1 + Math.floor(Math.random() * 1000);
    const { rows } = await pool.query('UPDATE ceiling_rows SET n = n + 1, seen_at = now() WHERE id = $1 RETURNING n', [id]);
    res.json({ id, n: rows[0].n });
  });
  const prototypes = appPrototypes();
  prototypes.use(app);
  const server = createServer({ IncomingMessage: prototypes.Request, ServerResponse: prototypes.Response }, app).listen(port, '127.0.0.1', () => {
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    if (cluster.isWorker) process.send!({ url });
    else process.stdout.write(`${JSON.stringify({ url })}\n`);
  });
  process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
}
