import type { Express } from 'express';
import pino from 'pino';
import { createApp } from '../../src/app';
import { createContext, type ServerConfig } from '../../src/boot/context';
import type { AppContext } from '../../src/core/context';
import type { NotificationListener } from '../../src/core/notify';
import { createTenant } from '../../src/modules/platform';
import { createTestServer, type TestServer } from '../harness';
import { makeOrganization, type Tenant } from './catalogue-fixtures';

export interface SecondInstance {
  ctx: AppContext;
  app: Express;
  listener: NotificationListener;
}

/**
 * Two app instances on one database, each with its own pool, caches and LISTEN connection, as two server
 * processes would have; a tenant whose publishable key allows many readers from one address, and its organization.
 */
export async function twoInstances(): Promise<{ t: TestServer; second: SecondInstance; tenant: Tenant; org: { id: string } }> {
  const t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
  const { ctx, listener } = await createContext({ ...t.ctx.config } as ServerConfig, pino({ level: 'silent' }), 5);
  const tenant = await createTenant(t.ctx.db, { name: 'Acme', rate_limits: { publishable: 10_000 } });
  return { t, second: { ctx, listener, app: createApp(ctx) }, tenant, org: await makeOrganization(t, tenant) };
}

export async function stopTwoInstances(t: TestServer | undefined, second: SecondInstance | undefined): Promise<void> {
  await second?.listener.stop();
  await second?.ctx.db.destroy();
  await t?.close();
}
