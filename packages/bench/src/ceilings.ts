// The two ceilings every scenario is compared with, served by a separate process so they are measured
// exactly like the Svc server: a bare Express JSON route, and an Express route doing one indexed
// `UPDATE … RETURNING` through pg. Like the Svc server, the process makes its requests and responses with the
// app's prototypes, which Express would otherwise set on each one at a cost larger than the rest of a bare request.
import { createServer } from 'node:http';
import express from 'express';
import pg from 'pg';
import { appPrototypes } from '../../server/src/core/app-prototypes';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query('CREATE TABLE IF NOT EXISTS ceiling_rows (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0, seen_at timestamptz)');
await pool.query('INSERT INTO ceiling_rows (id) SELECT g FROM generate_series(1, 1000) g ON CONFLICT DO NOTHING');

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
const server = createServer({ IncomingMessage: prototypes.Request, ServerResponse: prototypes.Response }, app).listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
