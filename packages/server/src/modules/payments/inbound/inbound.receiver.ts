import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../../../core/context';
import { DARAJA_CALLBACK_ACK } from '../providers/mpesa/daraja-callbacks';
import { receiveNotification } from './receive-notification';

/** Paystack's and Stripe's webhooks (one address per configuration; they sign every delivery). */
export const PAYMENT_WEBHOOK_PATH = '/api/v1/payments/:provider/webhooks/:config';
/** M-Pesa's callbacks: Daraja signs nothing, so every operation has its own address with a random token. */
export const MPESA_CALLBACK_PATH = '/api/v1/payments/mpesa/webhooks/:config/:token';

/** Notifications are small JSON documents; anything larger is not one. */
const MAX_BODY = '256kb';

/**
 * The request log writes each request's path when it ends; an M-Pesa address's last segment is a credential,
 * so it is masked on the request before any line is written.
 */
function maskToken(req: Request, _res: Response, next: NextFunction): void {
  req.originalUrl = req.originalUrl.replace(/(\/api\/v1\/payments\/mpesa\/webhooks\/[^/?]+\/)[^/?]+/, '$1***');
  next();
}

/**
 * The inbound provider notifications (products-api § 1.4), outside the JSON contract: the signatures cover
 * the raw bytes, so the body is read raw, before the JSON parser, after the per-IP limit of public routes.
 * A genuine notification is recorded and answered at once; a job applies it.
 */
export function mountPaymentWebhooks(app: Express, ctx: AppContext, before: RequestHandler[] = []): void {
  const receive = (token: (req: Request) => string | null) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      const providerType = req.params.provider ? String(req.params.provider) : 'mpesa';
      await receiveNotification(ctx, {
        providerType,
        configId: String(req.params.config),
        token: token(req),
        headers: req.headers,
        rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        ip: req.ip ?? 'unknown',
      });
      if (providerType === 'mpesa') res.status(200).json(DARAJA_CALLBACK_ACK);
      else res.status(200).json({ received: true });
    } catch (err) {
      next(err);
    }
  };
  const raw = express.raw({ type: () => true, limit: MAX_BODY });
  app.post(MPESA_CALLBACK_PATH, maskToken, ...before, raw, receive((req) => String(req.params.token)));
  app.post(PAYMENT_WEBHOOK_PATH, ...before, raw, receive(() => null));
}
