import type { EffectiveBranding, Session } from '@svc/contract';
import { escapeHtml, brandedPage } from '../../../core/brand-page';
import type { AppContext } from '../../../core/context';
import { isAllowedRedirect, redirectUrls } from '../settings/identity-settings.service';
import { destinationOf } from './destination';
import { OTP_LIMITS } from './otp-limits';
import { hashLinkToken, signIn } from './otp.service';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

/** The tenant and environment of a link that can still sign in (known, not spent, not replaced, at most 15 minutes old), else `null`. */
export async function linkUsable(ctx: AppContext, token: string): Promise<{ tenantId: string; livemode: boolean } | null> {
  const row = await ctx.db
    .selectFrom('otp_challenges')
    .select(['tenant_id', 'livemode'])
    .where('link_hash', '=', hashLinkToken(token))
    .where('consumed_at', 'is', null)
    .where('replaced_at', 'is', null)
    .where('created_at', '>', new Date(nowOf(ctx).getTime() - OTP_LIMITS.linkTtlMs))
    .executeTakeFirst();
  return row ? { tenantId: row.tenant_id, livemode: row.livemode } : null;
}

/**
 * Spends the link in one conditional update (a second POST finds it spent) and signs the person in, in the
 * same transaction. Answers the session and where to send it, if `redirect_to` is on the allow-list.
 */
export async function useLink(ctx: AppContext, token: string): Promise<{ session: Session; redirectTo: string | null; scope: { tenantId: string; livemode: boolean } } | null> {
  const now = nowOf(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const challenge = await trx
      .updateTable('otp_challenges')
      .set({ consumed_at: now })
      .where('link_hash', '=', hashLinkToken(token))
      .where('consumed_at', 'is', null)
      .where('replaced_at', 'is', null)
      .where('created_at', '>', new Date(now.getTime() - OTP_LIMITS.linkTtlMs))
      .returning(['tenant_id', 'livemode', 'destination', 'redirect_to'])
      .executeTakeFirst();
    if (!challenge) return null;
    const scope = { tenantId: challenge.tenant_id, livemode: challenge.livemode };
    const destination = destinationOf({ email: challenge.destination.slice('email:'.length) });
    const session = await signIn(ctx, trx, scope, destination, 'magic_link');
    const allowed = await redirectUrls(trx, scope);
    return { session, scope, redirectTo: isAllowedRedirect(challenge.redirect_to, allowed) ? challenge.redirect_to : null };
  });
}

/** The session in a URL fragment, so it never reaches a server's logs. */
export function redirectWithSession(redirectTo: string, session: Session): string {
  const fragment = new URLSearchParams({
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: String(session.expires_in),
    expires_at: String(session.expires_at),
    refresh_token: session.refresh_token,
  });
  const url = new URL(redirectTo);
  url.hash = fragment.toString();
  return url.toString();
}

/** The landing pages of a sign-in link, in the tenant's (or its organization's) brand; every brand value is escaped. */
const page = (title: string, body: string, brand: EffectiveBranding) => {
  const b = brandedPage(brand);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title} · ${escapeHtml(brand.display_name)}</title>${b.style}</head>` +
    `<body style="font-family:system-ui;margin:0">${b.header}<main style="max-width:28rem;margin:4rem auto;text-align:center"><h1>${title}</h1>${body}</main>${b.footer}</body></html>`
  );
};

export const linkPage = (brand: EffectiveBranding) => page('Sign in', '<form method="post"><button type="submit" style="font-size:1.2rem;padding:.6rem 1.4rem">Sign in</button></form>', brand);
export const signedInPage = (brand: EffectiveBranding) => page('Signed in', '<p>You are signed in. You can close this window.</p>', brand);
export const expiredLinkPage = (brand: EffectiveBranding) => page('Link expired', '<p>This sign-in link was used or has expired. Request a new one.</p>', brand);
