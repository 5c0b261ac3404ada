import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { sk, type Tenant } from '../creators/creators-fixtures';

export { creatorOrg, header, orgMember, pk, readyAsset, signIn, sk, staffMember, type Tenant } from '../creators/creators-fixtures';

export const tshirtVariants = (stock: number | null = 10, price = 2500) =>
  ['S', 'M', 'L'].map((size) => ({ name: `Black / ${size}`, sku: `TEE-${size}-${Math.random().toString(36).slice(2, 8)}`, options: { size }, price, stock }));

/** A product made with the secret key; published unless the body says otherwise. */
export async function product(t: TestServer, tenant: Tenant, organization: string, body: Record<string, unknown> = {}) {
  const res = await t.http().post('/v1/commerce/products').set(sk(tenant)).send({
    organization,
    kind: 'physical',
    name: 'Tour T-shirt',
    status: 'published',
    variants: tshirtVariants(),
    ...body,
  });
  return expectStatus(res, 201).data as Record<string, any>;
}

export const variantRow = (t: TestServer, id: string) => t.ctx.db.selectFrom('product_variants').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
