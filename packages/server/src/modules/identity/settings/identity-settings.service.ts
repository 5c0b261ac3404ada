import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';

export async function redirectUrls(db: Executor, scope: Scope): Promise<string[]> {
  const row = await db
    .selectFrom('identity_settings')
    .select('redirect_urls')
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .executeTakeFirst();
  return row?.redirect_urls ?? [];
}

const serialize = (scope: Scope, urls: string[]) => ({ object: 'identity_settings' as const, livemode: scope.livemode, redirect_urls: urls });

export async function getSettings(ctx: AppContext, scope: Scope) {
  return serialize(scope, await redirectUrls(ctx.db, scope));
}

export async function updateSettings(ctx: AppContext, scope: Scope, input: { redirect_urls: string[] }) {
  const urls = [...new Set(input.redirect_urls)];
  await sql`
    insert into identity_settings (tenant_id, livemode, redirect_urls) values (${scope.tenantId}, ${scope.livemode}, ${JSON.stringify(urls)}::jsonb)
    on conflict (tenant_id, livemode) do update set redirect_urls = excluded.redirect_urls, updated_at = now()`.execute(ctx.db);
  return serialize(scope, urls);
}

/** `redirect_to` is allowed when it has the origin of an allowed URL and starts with its path. */
export function isAllowedRedirect(redirectTo: string | null, allowed: readonly string[]): redirectTo is string {
  if (!redirectTo) return false;
  let target: URL;
  try {
    target = new URL(redirectTo);
  } catch {
    return false;
  }
  return allowed.some((entry) => {
    const base = new URL(entry);
    return base.origin === target.origin && target.pathname.startsWith(base.pathname) && !target.username && !target.password;
  });
}
