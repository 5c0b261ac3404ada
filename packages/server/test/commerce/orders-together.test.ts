import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../harness';
import { creatorOrg, pk, product, sk, variantRow, type Tenant } from './commerce-fixtures';
import { orderBody } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

let keys = 0;
/** `POST /v1/orders` with a fresh Idempotency-Key, as a storefront unless `auth` says otherwise; sent at once. */
const placeOrder = (_: unknown, tenant: Tenant, body: Record<string, unknown>, auth: Record<string, string> = pk(tenant)) =>
  t.http().post('/v1/orders').set(auth).set('Idempotency-Key', `together-${keys++}`).send(body).then((res) => res);

/** A published physical product of one variant with `stock` units. */
async function variantWith(tenant: Tenant, slug: string, stock: number): Promise<string> {
  // Buyers come faster than any one client would: the per-key limit is not what this measures.
  await t.ctx.db.updateTable('tenants').set({ rate_limit_secret: 100_000, rate_limit_publishable: 100_000 }).where('id', '=', tenant.tenant.id).execute();
  const org = await creatorOrg(t, tenant, slug);
  const made = await product(t, tenant, org.id, { variants: [{ name: 'Poster', sku: `${slug}-1`, price: 1000, stock }] });
  return made.variants[0].id as string;
}

/**
 * Runs `orders` while another transaction holds the variant's row: the first orders' transaction waits for it,
 * and the orders arriving meanwhile queue behind it and go out together once it is let go.
 */
async function whileLocked<T>(variant: string, orders: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.ctx.db.transaction().execute(async (trx) => {
    await trx.selectFrom('product_variants').select('id').where('id', '=', variant).forUpdate().execute();
    locked();
    await released;
  });
  await isLocked;
  const answers = orders();
  await new Promise((resolve) => setTimeout(resolve, 500));
  release();
  await holder;
  return answers;
}

/** The transaction that wrote each order of the tenant (PostgreSQL's `xmin`), by order id. */
async function writersOf(tenant: Tenant): Promise<Map<string, string>> {
  const { rows } = await sql<{ id: string; xmin: string }>`select id, xmin::text as xmin from orders where tenant_id = ${tenant.tenant.id}`.execute(t.ctx.db);
  return new Map(rows.map((r) => [r.id, r.xmin]));
}

describe('product orders arriving together', () => {
  it('are taken in shared transactions and never oversell: 60 buyers for 20 units make 20 orders, the rest 409 out_of_stock', async () => {
    const tenant = await t.tenant('Together');
    const variant = await variantWith(tenant, 'together_band', 20);
    const answers = await whileLocked(variant, () => Promise.all(Array.from({ length: 60 }, (_, i) => placeOrder(t, tenant, orderBody(variant, 1, i)))));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(20);
    for (const r of answers.filter((a) => a.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'out_of_stock', param: 'line_items', details: { variants: [variant] } });
    }
    expect(await variantRow(t, variant)).toMatchObject({ stock: 20, reserved: 20, sold: 0 });
    const writers = await writersOf(tenant);
    expect(writers.size).toBe(20);
    // Fewer transactions than orders: orders were written together.
    expect(new Set(writers.values()).size).toBeLessThan(20);
    for (const { body } of created) {
      expect(body.data).toMatchObject({ status: 'pending', amount_total: body.data.amount_total, checkout_url: expect.any(String) });
      const lines = await t.ctx.db.selectFrom('line_items').select(['quantity', 'unit_amount']).where('order_id', '=', body.data.id).execute();
      expect(lines).toEqual([{ quantity: 1, unit_amount: 1000 }]);
      const own = await t.ctx.db.selectFrom('product_orders').select(['stock_state', 'lines']).where('order_id', '=', body.data.id).executeTakeFirstOrThrow();
      expect(own).toEqual({ stock_state: 'held', lines: [{ variant, quantity: 1 }] });
    }
  });

  it('serve each order all or none in arrival order: a short one is refused while a smaller one after it goes on', async () => {
    const tenant = await t.tenant('Turns');
    const variant = await variantWith(tenant, 'turns_band', 3);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
    const answers = await whileLocked(variant, async () => {
      // Two orders wait for the lock, one per flush that may run at once: the next ones queue and go out together.
      const early = [placeOrder(t, tenant, orderBody(variant, 1, 'a'))];
      await pause();
      early.push(placeOrder(t, tenant, orderBody(variant, 1, 'b')));
      await pause();
      const big = placeOrder(t, tenant, orderBody(variant, 2, 'c'));
      await pause();
      const small = placeOrder(t, tenant, orderBody(variant, 1, 'd'));
      return Promise.all([...early, big, small]);
    });
    expect(answers.map((a) => a.status)).toEqual([201, 201, 409, 201]);
    expect(answers[2]!.body.error).toMatchObject({ code: 'out_of_stock', details: { variants: [variant] } });
    expect(await variantRow(t, variant)).toMatchObject({ reserved: 3 });
    const writers = await writersOf(tenant);
    expect(writers.get(answers[3]!.body.data.id)).not.toBe(writers.get(answers[0]!.body.data.id));
  });

  it('fail one order alone when its external_id is taken, while the others are created', async () => {
    const tenant = await t.tenant('Taken');
    const variant = await variantWith(tenant, 'taken_band', 50);
    expect((await placeOrder(t, tenant, orderBody(variant, 1, 'x', { external_id: 'shop-1' }), sk(tenant))).status).toBe(201);
    const warn = vi.spyOn(t.ctx.log, 'warn');
    const answers = await whileLocked(variant, async () => {
      const others = Array.from({ length: 8 }, (_, i) => placeOrder(t, tenant, orderBody(variant, 1, i, { external_id: `shop-${i + 2}` }), sk(tenant)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Arrives while the first orders wait for the lock: it goes in a group with the ones queued beside it.
      const taken = placeOrder(t, tenant, orderBody(variant, 1, 'y', { external_id: 'shop-1' }), sk(tenant));
      const more = Array.from({ length: 4 }, (_, i) => placeOrder(t, tenant, orderBody(variant, 1, `m${i}`), pk(tenant)));
      return Promise.all([taken, ...others, ...more]);
    });
    expect(answers[0]!.status).toBe(409);
    expect(answers[0]!.body.error).toMatchObject({ code: 'external_id_taken', param: 'external_id' });
    expect(answers.slice(1).map((a) => a.status)).toEqual(answers.slice(1).map(() => 201));
    // Nothing held for the refused order: 1 before, 12 now.
    expect(await variantRow(t, variant)).toMatchObject({ reserved: 13 });
    expect((await writersOf(tenant)).size).toBe(13);
    // It was in a group, whose orders were then taken each alone.
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ orders: expect.any(Number) }), 'product orders taken together failed; taking each alone');
    warn.mockRestore();
  });
});
