import { randomToken } from '../../../core/ids';
import type { Executor } from '../../../db/database';
import { slugify } from '../../../core/slug';

/** A tenant code from a name: lower-case ASCII letters and digits joined by `-`, 3 to 40 characters. */
export function slugOf(name: string): string {
  const slug = slugify(name, 34);
  return slug.length >= 3 ? slug : `tenant${slug ? `-${slug}` : ''}`;
}

/**
 * The default code of a new tenant: the slug of its name, or with a short random suffix when another tenant
 * has it. Two creations racing for one slug meet at the unique index, and the loser answers `409`.
 */
export async function freeTenantCode(db: Executor, name: string): Promise<string> {
  const base = slugOf(name);
  for (let candidate = base, i = 0; i < 5; i++, candidate = `${base}-${randomToken(5).toLowerCase()}`) {
    const taken = await db.selectFrom('tenants').select('id').where('code', '=', candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
  return `${base}-${randomToken(8).toLowerCase()}`;
}
