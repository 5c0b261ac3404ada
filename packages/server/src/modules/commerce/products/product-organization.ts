import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import { findProduct } from './products.repository';

/** The organization a product of this scope belongs to, or `null` (a promoter's assignment targets its own organization's). */
export async function productOrganization(db: Executor, scope: Scope, id: string): Promise<{ id: string; organizationId: string } | null> {
  const product = await findProduct(db, scope, id);
  return product ? { id: product.id, organizationId: product.organization_id } : null;
}
