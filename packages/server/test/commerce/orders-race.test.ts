import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { creatorOrg, pk, product, variantRow, type Tenant } from './commerce-fixtures';
import { orderBody } from './orders-fixtures';

// Buyers come faster than any one client would: the per-key limit is not what this measures.
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

let server: Server;
let base: string;
beforeAll(async () => {
  server = t.app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Runs `tasks` with at most `limit` in flight: what a 2-core machine serves without queueing for seconds. */
async function bounded<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

const post = async (path: string, headers: Record<string, string>, body: unknown) => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

describe('the last units of a variant', () => {
  let tenant: Tenant;

  it('500 buyers racing for the last 50 units make exactly 50 orders, all paid, and clean 409 out_of_stock answers', async () => {
    tenant = await t.tenant('Rush');
    await t.ctx.db.updateTable('tenants').set({ rate_limit_publishable: 100_000 }).where('id', '=', tenant.tenant.id).execute();
    const org = await creatorOrg(t, tenant, 'rush_band');
    const made = await product(t, tenant, org.id, { kind: 'digital', variants: [{ name: 'Poster', sku: 'RUSH-1', price: 1000, stock: 60 }], status: 'draft' });
    // A digital product needs a grant to be published; a physical one keeps this test about stock alone.
    await t.ctx.db.updateTable('products').set({ kind: 'physical', status: 'published' }).where('id', '=', made.id).execute();
    const variant = made.variants[0].id as string;
    const headers = (i: string) => ({ ...pk(tenant), 'Idempotency-Key': `rush-${i}` });
    // The first ten units go before the rush.
    for (let i = 0; i < 10; i++) expect((await post('/v1/orders', headers(`early-${i}`), orderBody(variant, 1, i))).status).toBe(201);

    const started = Date.now();
    const answers = await bounded(
      25,
      Array.from({ length: 500 }, (_, i) => () => post('/v1/orders', headers(String(i)), orderBody(variant, 1, 100 + i))),
    );
    const elapsed = Date.now() - started;
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(created).toHaveLength(50);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('out_of_stock');
      expect(r.body.error.details).toEqual({ variants: [variant] });
    }
    expect(await variantRow(t, variant)).toMatchObject({ stock: 60, reserved: 60, sold: 0 });

    const payments = await bounded(
      10,
      created.map((c) => () => {
        const session = String(c.body.data.checkout_url).split('/').pop()!;
        return post(`/v1/checkout/sessions/${session}/pay`, {}, { method: 'card', card_number: '4242424242424242' });
      }),
    );
    expect(payments.map((p) => p.status)).toEqual(created.map(() => 200));
    const paid = await t.ctx.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenant.tenant.id).where('status', '=', 'paid').executeTakeFirstOrThrow();
    expect(Number(paid.n)).toBe(50);
    expect(await variantRow(t, variant)).toMatchObject({ stock: 10, reserved: 10, sold: 50 });
    // The rush is served in seconds, not minutes, on a small machine.
    expect(elapsed).toBeLessThan(60_000);
  });
});
