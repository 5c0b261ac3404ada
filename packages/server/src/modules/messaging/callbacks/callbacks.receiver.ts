import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { secretsEqual } from '../../../core/auth/api-key-secret';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { readAfricasTalkingReport } from './africas-talking.callback';
import { applyReceipt, type Receipt, type ReceiptOutcome } from './receipts';
import { readWhatsAppStatuses, whatsappSignatureValid } from './whatsapp.callback';

/** Where providers post delivery receipts. `{config}` names the channel configuration: `default`, the environment's. */
export const MESSAGING_CALLBACK_PATH = '/api/v1/messaging/:provider/callbacks/:config';
export const DEFAULT_CONFIG = 'default';

/** Receipts are small documents; anything larger is not one. */
const MAX_BODY = '256kb';

const refused = () => ApiError.of('message_callback_refused');
const invalid = (message: string) => ApiError.of('invalid_request', { message, param: 'body' });

/** The configured callback secret of a provider, or `404` when the provider or configuration takes no callbacks here. */
function secretOf(ctx: AppContext, provider: string, config: string): string {
  const secret =
    provider === 'africastalking' ? ctx.config.AFRICASTALKING_CALLBACK_SECRET : provider === 'whatsapp' ? ctx.config.WHATSAPP_APP_SECRET : undefined;
  if (!secret || config !== DEFAULT_CONFIG) throw ApiError.notFound('messaging callback configuration', `${provider}/${config}`);
  return secret;
}

function readForm(raw: Buffer, type: string | undefined): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (/json/i.test(type ?? '')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      throw invalid('The body is not JSON.');
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** Verifies the callback the way its provider documents, then reads its receipts. */
function receiptsOf(ctx: AppContext, req: Request, raw: Buffer, now: Date): Receipt[] {
  const provider = String(req.params.provider);
  const secret = secretOf(ctx, provider, String(req.params.config));
  if (provider === 'africastalking') {
    // A shared secret in the callback URL (`?secret=`), which Africa's Talking's dashboard takes as part of the URL.
    const given = typeof req.query.secret === 'string' ? req.query.secret : '';
    if (!secretsEqual(given, secret)) throw refused();
    const report = readAfricasTalkingReport(readForm(raw, req.headers['content-type']), now);
    if (report && 'invalid' in report) throw invalid(report.invalid);
    return report ? [report] : [];
  }
  if (!whatsappSignatureValid(raw, req.headers['x-hub-signature-256'] as string | undefined, secret)) throw refused();
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalid('The body is not JSON.');
  }
  const receipts = readWhatsAppStatuses(body);
  if ('invalid' in receipts) throw invalid(receipts.invalid);
  return receipts;
}

/**
 * The providers' delivery callbacks, outside the JSON contract: the WhatsApp signature covers the raw bytes,
 * so the body is read raw, before the JSON parser. Unknown provider or configuration: `404`; a missing or
 * wrong signature or secret: `401 message_callback_refused`; neither changes anything. A receipt for a message
 * this server does not know is taken (`200`) so the provider does not retry it forever.
 */
export function mountMessagingCallbacks(app: Express, ctx: AppContext, before: RequestHandler[] = []): void {
  const now = () => (ctx.clock ? ctx.clock() : new Date());
  app.post(MESSAGING_CALLBACK_PATH, ...before, express.raw({ type: () => true, limit: MAX_BODY }), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const outcomes: ReceiptOutcome[] = [];
      for (const receipt of receiptsOf(ctx, req, raw, now())) outcomes.push(await applyReceipt(ctx.db, receipt));
      res.status(200).json({ received: true, outcomes });
    } catch (err) {
      next(err);
    }
  });
  // WhatsApp's subscription check: echo `hub.challenge` when `hub.verify_token` matches.
  app.get(MESSAGING_CALLBACK_PATH, ...before, (req: Request, res: Response, next: NextFunction) => {
    try {
      if (String(req.params.provider) !== 'whatsapp') throw ApiError.notFound('messaging callback configuration');
      secretOf(ctx, 'whatsapp', String(req.params.config));
      const token = ctx.config.WHATSAPP_VERIFY_TOKEN;
      const q = req.query as Record<string, unknown>;
      const given = typeof q['hub.verify_token'] === 'string' ? q['hub.verify_token'] : '';
      if (q['hub.mode'] !== 'subscribe' || !token || !secretsEqual(given, token)) throw refused();
      const challenge = typeof q['hub.challenge'] === 'string' ? q['hub.challenge'] : '';
      if (!/^[\w-]{1,200}$/.test(challenge)) throw invalid('`hub.challenge` is missing.');
      res.status(200).type('text/plain').send(challenge);
    } catch (err) {
      next(err);
    }
  });
}
