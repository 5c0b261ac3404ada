import type { Express, Request, Response } from 'express';
import { brandedPage, escapeHtml, type BrandedPage } from '../../../core/brand-page';
import { neutralBrand } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { tenantIdOfHeader } from '../../../core/auth/resolvers/tenant-header.resolver';
import type { Scope } from '../../../core/scope';
import { getPublicCapsule } from './public-capsule.service';

export const CAPSULE_PAGE_PATH = '/capsules/:handle';

const STYLE = `body{font-family:system-ui,sans-serif;margin:0}main{max-width:36rem;margin:2rem auto;padding:0 1rem}
.capsule-head{display:flex;gap:1rem;align-items:center}.capsule-head img{width:5rem;height:5rem;border-radius:50%;object-fit:cover}
h1{margin:.2rem 0}.tagline{opacity:.8;margin:0}.stats{display:flex;gap:1.5rem;margin:1rem 0}.stats b{display:block;font-size:1.3rem}
.links a{display:inline-block;margin:.2rem .5rem .2rem 0}`;

const csp = (b: BrandedPage, images: string) =>
  `default-src 'none'; style-src ${b.styleSrc}; img-src 'self' ${b.imgSrc} ${images}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

function send(res: Response, status: number, title: string, body: string, b: BrandedPage, images = '') {
  res.setHeader('Content-Security-Policy', csp(b, images));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).type('html').send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
      `${b.style.replace('</style>', `${STYLE}</style>`)}</head><body>${b.header}<main>${body}</main>${b.footer}</body></html>`,
  );
}

/** The tenant and environment the page is for: a custom domain's; on the service's own host, `?tenant=` (live mode, as a tenant header). */
async function scopeOf(ctx: AppContext, req: Request): Promise<Scope | undefined> {
  if (req.domain) return { tenantId: req.domain.tenantId, livemode: req.domain.livemode };
  const tenant = typeof req.query.tenant === 'string' ? req.query.tenant.slice(0, 255) : undefined;
  const id = tenant ? await tenantIdOfHeader(ctx, tenant) : undefined;
  return id ? { tenantId: id, livemode: true } : undefined;
}

const origin = (url: string | null) => {
  try {
    return url ? new URL(url).origin : '';
  } catch {
    return '';
  }
};

/**
 * `GET /capsules/{handle}`: the creator's public capsule as a page of its own, in the organization's brand, for
 * tenants without a front-end of their own (on their custom domain, or `?tenant=` here). Everything is escaped.
 */
export function mountCapsulePage(app: Express, ctx: AppContext): void {
  app.get(CAPSULE_PAGE_PATH, async (req, res, next) => {
    try {
      const scope = await scopeOf(ctx, req);
      const capsule = scope ? await getPublicCapsule(ctx, scope, String(req.params.handle).slice(0, 255), null, req.domain).catch((err) => {
        if (err instanceof ApiError && err.status === 404) return undefined;
        throw err;
      }) : undefined;
      if (!capsule) {
        const b = brandedPage(neutralBrand('Capsule'));
        return send(res, 404, 'Not found', '<h1>No such capsule</h1><p>Check the link you were given.</p>', b);
      }
      const b = brandedPage(capsule.branding);
      const c = capsule.capsule;
      const avatar = c.avatar_url ? `<img id="capsule-avatar" src="${escapeHtml(c.avatar_url)}" alt="">` : '';
      const links = capsule.links.map((l) => `<a href="${escapeHtml(l.url)}" rel="noopener">${escapeHtml(l.label)}</a>`).join('');
      const body =
        `<section class="capsule-head">${avatar}<div><h1 id="capsule-name">${escapeHtml(c.name)}</h1>${c.tagline ? `<p class="tagline">${escapeHtml(c.tagline)}</p>` : ''}</div></section>` +
        (c.bio ? `<p id="capsule-bio">${escapeHtml(c.bio)}</p>` : '') +
        `<div class="stats"><span><b>${capsule.stats.audience_count}</b>followers</span><span><b>${capsule.stats.drops_count}</b>drops</span><span><b>${capsule.stats.videos_count}</b>videos</span></div>` +
        (links ? `<p class="links">${links}</p>` : '');
      send(res, 200, `${escapeHtml(c.name)} · ${escapeHtml(capsule.branding.display_name)}`, body, b, origin(c.avatar_url));
    } catch (err) {
      next(err);
    }
  });
}
