import { randomUUID } from 'node:crypto';
import { bearer, useTestServer } from '../harness';

/** The idempotency tests' server and the helpers they share. */
export function useIdempotencyServer() {
  const t = useTestServer();

  const newKey = () => `idem-${randomUUID()}`;
  /** Rows are kept per caller (`["key", <api key id>, <Idempotency-Key>]`); the sent key is unique enough to find its row. */
  const storedAs = (key: string) => `%${JSON.stringify(key)}]`;

  async function keyCount(tenantId: string, livemode = false): Promise<number> {
    const { n } = await t.ctx.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('livemode', '=', livemode)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async function tenantCount(name: string): Promise<number> {
    const { n } = await t.ctx.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  const createKey = (secret: string, key: string | undefined, body: object) => {
    const req = t.http().post('/v1/keys').set(bearer(secret));
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };

  return { t, newKey, storedAs, keyCount, tenantCount, createKey };
}
