import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { builtServer, SERVER_DIR } from './built-server';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const OPERATOR_TOKEN = `op_${randomBytes(24).toString('hex')}`;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface RunningServer {
  url: string;
  operatorToken: string;
  createTenant: (name?: string) => Promise<{ tenant: { id: string }; keys: { test: { secret: string; publishable: string }; live: { secret: string; publishable: string } } }>;
  stop: () => Promise<void>;
}

/**
 * The real server as its own process on a fresh database, with an operator token: SDKs and examples are
 * tested the way tenants use them (`@svc/server/testing`). `env` adds settings (the console's tests give it an SMTP server).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const database = `svc_sdk_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const child: ChildProcess = spawn(process.execPath, [builtServer().main], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: '0',
      LOG_LEVEL: 'info',
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-sdk-')),
      // The media network (when installed) runs with its own nginx on a free port, its files in the temp data directory.
      SVC_MEDIA_RTMP_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)","msg":"listening"/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`server exited before listening:\n${output}`)));
  });
  return {
    url: baseUrl,
    operatorToken: OPERATOR_TOKEN,
    createTenant: async (name = 'SDK tenant') => {
      const res = await fetch(`${baseUrl}/v1/operator/tenants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (res.status !== 201) throw new Error(`tenant creation failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: Awaited<ReturnType<RunningServer['createTenant']>> }).data;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}
