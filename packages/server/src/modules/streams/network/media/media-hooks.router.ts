import express, { type Express, type Request, type Response } from 'express';
import { secretsEqual } from '../../../../core/auth/api-key-secret';
import type { AppContext } from '../../../../core/context';
import { streamsDeps } from '../../streams-deps';
import { videoNetworksPart } from '../../streams-parts';
import { INGEST_APP } from './media-layout';
import { MEDIA_PROVIDER, type MediaVideoNetwork } from './media-network';
import { onPublish, onPublishDone } from './publish-hooks';

/** Where nginx calls back; not part of the public API (no contract route), only nginx knows the secret. */
export const MEDIA_HOOKS_PATH = '/internal/media';

/** The running media network, when this server runs one. */
export function mediaNetworkOf(ctx: Pick<AppContext, 'parts'>): MediaVideoNetwork | undefined {
  const networks = videoNetworksPart.of(ctx);
  return networks.names.includes(MEDIA_PROVIDER) ? (networks.byProvider(MEDIA_PROVIDER) as MediaVideoNetwork) : undefined;
}

/**
 * nginx-rtmp's `on_publish` and `on_publish_done` callbacks (form-encoded POSTs). A 2xx lets an encoder in, a
 * 3xx with an `rtmp://` Location relays it under its live input's ref, anything else refuses it.
 */
export function mountMediaHooks(app: Express, ctx: AppContext): void {
  const deps = streamsDeps(ctx);
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const guard = (req: Request, res: Response): MediaVideoNetwork | undefined => {
    const network = mediaNetworkOf(ctx);
    const expected = network?.options.hookSecret;
    const given = typeof req.query.secret === 'string' ? req.query.secret : '';
    if (!network || !expected || !secretsEqual(given, expected)) {
      res.status(404).end();
      return undefined;
    }
    return network;
  };
  const fields = (req: Request) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    return { name: String(body.name ?? ''), clientId: String(body.clientid ?? ''), app: String(body.app ?? '') };
  };

  app.post(`${MEDIA_HOOKS_PATH}/on_publish`, form, async (req, res) => {
    const network = guard(req, res);
    if (!network) return;
    const { name, clientId, app: rtmpApp } = fields(req);
    if (rtmpApp !== INGEST_APP) return void res.status(403).end();
    try {
      const decision = await onPublish(deps, network, ctx.log, name, clientId);
      if (!decision.allowed) return void res.status(403).end();
      res.status(302).setHeader('Location', network.loopbackUrl(decision.ref)).end();
    } catch (err) {
      ctx.log.error({ err }, 'media network: on_publish failed');
      res.status(500).end();
    }
  });

  app.post(`${MEDIA_HOOKS_PATH}/on_publish_done`, form, async (req, res) => {
    const network = guard(req, res);
    if (!network) return;
    const { name, clientId } = fields(req);
    res.status(200).end();
    await onPublishDone(deps, network, ctx.log, name, clientId).catch((err) => ctx.log.error({ err }, 'media network: on_publish_done failed'));
  });
}
