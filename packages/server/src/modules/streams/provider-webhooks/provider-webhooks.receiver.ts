import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { videoNetworksPart } from '../streams-parts';
import { applyNotice, configForInbound } from './provider-notices.service';

/** Where a tenant's video account sends its webhooks and live-input notifications. */
export const PROVIDER_WEBHOOK_PATH = '/api/v1/providers/:provider/webhooks/:id';

/** Deliveries are small JSON documents; anything larger is not one. */
const MAX_BODY = '256kb';

/**
 * The inbound provider webhooks, outside the JSON contract: the signature covers the raw bytes, so the body
 * is read raw, before the JSON parser. An unknown configuration is `404`; a missing or wrong signature or
 * shared secret, or a delivery over five minutes old, `401`; neither records anything. Everything done for
 * a delivery is database work in one transaction, so the answer comes well within a second.
 */
export function mountProviderWebhooks(app: Express, ctx: AppContext, before: RequestHandler[] = []): void {
  const now = () => (ctx.clock ? ctx.clock() : new Date());
  app.post(
    PROVIDER_WEBHOOK_PATH,
    ...before,
    express.raw({ type: () => true, limit: MAX_BODY }),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const config = await configForInbound(ctx, String(req.params.provider), String(req.params.id));
        const account = await videoNetworksPart.of(ctx).accounts?.account(config.id);
        if (!account) throw ApiError.notFound('provider configuration', config.id);
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const notice = account.readInbound(req.headers, raw, now());
        if ('refused' in notice) {
          throw notice.refused === 'unauthenticated'
            ? ApiError.of('provider_webhook_refused', { message: notice.message })
            : ApiError.of('invalid_request', { message: notice.message, param: 'body' });
        }
        const outcome = await applyNotice(ctx, config, notice);
        res.status(200).json({ received: true, outcome });
      } catch (err) {
        next(err);
      }
    },
  );
}
