import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { contentAssets, streamsDeps } from '../../streams';

/**
 * An avatar or cover as given to PATCH: an https URL is kept as it is; an `ast_` id must name a ready asset of
 * the environment with a public playback id, whose public address becomes the URL; `null` clears it.
 */
export async function resolveImage(ctx: AppContext, scope: Scope, param: 'avatar_asset' | 'cover_asset', value: string | null) {
  if (value === null) return { assetId: null, url: null };
  if (!value.startsWith('ast_')) return { assetId: null, url: value };
  const asset = (await contentAssets(streamsDeps(ctx), ctx.db, scope, [value])).get(value);
  const refuse = (message: string) => ApiError.of('validation_failed', { message, param, details: { [param]: [message] } });
  if (!asset) throw refuse(`No such asset: '${value}'.`);
  if (asset.status !== 'ready') throw refuse(`The asset is ${asset.status}; it must be ready.`);
  if (!asset.public_url) throw refuse('The asset has no public playback id, so it cannot be shown to everyone.');
  return { assetId: asset.id, url: asset.public_url };
}
