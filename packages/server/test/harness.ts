import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/boot/config';
import { createContext } from '../src/boot/context';
import type { AppContext } from '../src/core/context';
import type { AuthSlots } from '../src/core/auth/credential-resolver';
import type { ModuleDefinition } from '../src/core/modules/module-definition';
import { MODULES } from '../src/modules';
import { createTenant } from '../src/modules/platform';
import { createTestDatabase, databaseUrl, dropTestDatabase } from './databases';

export const OPERATOR_TOKEN = 'op_test_token_0123456789abcdefghijklmnop';
export const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestServer {
  app: Express;
  ctx: AppContext;
  databaseUrl: string;
  http: () => ReturnType<typeof request>;
  operator: { authorization: string };
  /** A tenant with its four keys, straight through the service. */
  tenant: (name?: string, products?: Parameters<typeof createTenant>[1]['products']) => ReturnType<typeof createTenant>;
  /**
   * Plugs verifiers into authentication (signed-in people's access tokens, tenant codes) until the end of the
   * file; the identity module's own, once it exists, or a test's stand-in.
   */
  plugAuth: (slots: Partial<AuthSlots>) => void;
  close: () => Promise<void>;
}

/** The real Express app on a fresh PostgreSQL database, with the same middleware and caches as production. */
export async function createTestServer(env: Record<string, string> = {}, modules: readonly ModuleDefinition[] = MODULES): Promise<TestServer> {
  const name = await createTestDatabase();
  const url = databaseUrl(name);
  const config = loadConfig({
    DATABASE_URL: url,
    SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...env,
  });
  const { ctx, listener } = await createContext({ ...config, DATABASE_URL: url, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY }, pino({ level: 'silent' }), 5, modules);
  const { db } = ctx;
  const app = createApp(ctx);
  return {
    app,
    ctx,
    databaseUrl: url,
    http: () => request(app),
    operator: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    tenant: (tenantName = 'Acme', products) => createTenant(db, { name: tenantName, products }),
    plugAuth: (slots) => Object.assign(ctx.auth, slots),
    close: async () => {
      await ctx.jobs.stop();
      await listener.stop();
      await db.destroy();
      await dropTestDatabase(name);
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * One test server for the whole file: created before its tests, closed after them. What it returns reads
 * through to that server, so a file can declare it once at the top.
 */
export function useTestServer(env: Record<string, string> = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await createTestServer(env);
  });
  afterAll(() => server?.close());
  return new Proxy({} as TestServer, {
    get: (_target, prop) => {
      if (!server) throw new Error('the test server is used before beforeAll ran');
      return Reflect.get(server, prop);
    },
  });
}
