import type { Database } from '../db/database';
import { countTenants, createTenant } from '../modules/platform/tenants/tenants.service';

/** On an empty database: a demo tenant, and the one-time banner with its test keys. */
export async function ensureDemoTenant(db: Database, baseUrl: string, operatorToken: string): Promise<string | null> {
  if ((await countTenants(db)) > 0) return null;
  const { tenant, keys } = await createTenant(db, { name: 'Demo tenant' });
  return [
    '',
    'Svc is running. This is shown once: the demo tenant was just created.',
    '',
    `  Base URL              ${baseUrl}`,
    `  API reference         ${baseUrl}/docs`,
    `  Operator token        ${operatorToken}`,
    `  Demo tenant           ${tenant.id}`,
    `  Test secret key       ${keys.test.secret}`,
    `  Test publishable key  ${keys.test.publishable}`,
    '',
    'Try:',
    `  curl -H "Authorization: Bearer ${keys.test.secret}" ${baseUrl}/v1/keys`,
    '',
  ].join('\n');
}
