import type { Express, Request } from 'express';
import type { AppContext } from '../../../core/context';
import { secretsEqual } from '../../../core/auth/api-key-secret';
import { CHECK_PATH } from './domain-probe';
import { normalizeHostname, requestHostname } from './hostname';

export const ALLOW_PATH = '/internal/domains/allow';

/** The socket's peer, not `req.ip`: a proxy's forwarded address must not pass for loopback. */
const fromLoopback = (req: Request) => ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');

function operatorAsked(ctx: AppContext, req: Request): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const expected = ctx.config.SVC_OPERATOR_TOKEN;
  return Boolean(m && expected && secretsEqual(m[1]!, expected));
}

/**
 * `GET /.well-known/svc-domain-check`: on a verified or active domain's host, its check token, which tells the
 * check that the host reaches this deployment. `GET /internal/domains/allow?domain=`: a TLS proxy's question
 * before it asks for a certificate on demand (Caddy's `ask`), `200` only for verified and active hostnames.
 */
export function mountDomainPages(app: Express, ctx: AppContext): void {
  app.get(CHECK_PATH, async (req, res, next) => {
    try {
      const hostname = requestHostname(req.get('host'));
      const row = hostname
        ? await ctx.db.selectFrom('domains').select('check_token').where('hostname', '=', hostname).where('status', 'in', ['verified', 'active']).executeTakeFirst()
        : undefined;
      res.setHeader('Cache-Control', 'no-store');
      if (!row) return void res.status(404).type('text/plain').send('not found');
      res.type('text/plain').send(row.check_token);
    } catch (err) {
      next(err);
    }
  });
  app.get(ALLOW_PATH, async (req, res, next) => {
    try {
      if (!fromLoopback(req) && !operatorAsked(ctx, req)) return void res.status(403).type('text/plain').send('forbidden');
      const raw = typeof req.query.domain === 'string' ? req.query.domain : '';
      let hostname: string;
      try {
        hostname = normalizeHostname(raw, new URL(ctx.config.baseUrl).hostname);
      } catch {
        return void res.status(404).type('text/plain').send('unknown');
      }
      const row = await ctx.db.selectFrom('domains').select('id').where('hostname', '=', hostname).where('status', 'in', ['verified', 'active']).executeTakeFirst();
      res.status(row ? 200 : 404).type('text/plain').send(row ? 'ok' : 'unknown');
    } catch (err) {
      next(err);
    }
  });
}
