import type { z } from 'zod';
import type { CreateUploadSchema, Upload } from '@svc/contract';
import { secretsEqual } from '../../../core/auth/api-key-secret';
import { emitEvent } from '../../../core/events/emit-event';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { RequestRef } from '../../../core/request-context';
import { withRequest, type Scope } from '../../../core/scope';
import { callNetwork } from '../network/video-networks';
import { addPlaybackId } from '../playback-ids/playback-id-rows';
import { afterNetworkCreated } from '../assets/asset-processing';
import { addAsset } from '../assets/assets.service';
import { emitAssetEvent } from '../assets/assets.serializer';
import type { MediaDeps } from '../assets/media-deps';
import * as repo from './uploads.repository';
import { openUploadUrl, sealUploadUrl, serializeUpload } from './uploads.serializer';

type CreateUploadInput = z.infer<typeof CreateUploadSchema>;

/** A one-time URL from the network; it is a bearer secret, so only its sealed form is stored. */
export async function createUpload(deps: MediaDeps, scope: Scope, input: CreateUploadInput): Promise<Upload> {
  const network = await deps.networks.forNewObject(deps.db, scope);
  const id = newId('upload');
  const corsOrigin = input.cors_origin ?? null;
  const created = await callNetwork(() => network.createUploadUrl({ uploadId: id, corsOrigin }));
  const row = await repo.insertUpload(deps.db, scope, {
    id,
    status: 'waiting',
    cors_origin: corsOrigin,
    url_sealed: sealUploadUrl(deps.secrets, id, created.url),
    provider: network.provider,
    provider_upload_id: created.providerRef,
    playback_policy: input.new_asset_settings?.playback_policy ?? 'signed',
    asset_metadata: JSON.stringify(input.new_asset_settings?.metadata ?? {}),
    max_bytes: deps.config.SVC_SIMULATED_UPLOAD_MAX_BYTES,
  });
  return serializeUpload(row, deps.secrets);
}

export async function getUpload(deps: Pick<MediaDeps, 'db' | 'secrets'>, scope: Scope, id: string): Promise<Upload> {
  const row = isIdOf('upload', id) ? await repo.findUpload(deps.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('upload', id);
  return serializeUpload(row, deps.secrets);
}

/**
 * The upload a `PUT` to a one-time URL on this server names, when its token is the URL's. Anything else is a
 * `404`, so the route tells nothing about uploads to someone without the URL.
 */
export async function uploadForToken(deps: Pick<MediaDeps, 'db' | 'secrets'>, id: string, token: string | undefined): Promise<repo.UploadRow> {
  const row = token && isIdOf('upload', id) ? await repo.findUploadForReceiving(deps.db, id) : undefined;
  const expected = row ? new URL(openUploadUrl(deps.secrets, row)).searchParams.get('token') : null;
  if (!row || !expected || !secretsEqual(token!, expected)) throw ApiError.notFound('upload');
  return row;
}

/** Whether a browser on `origin` may send the file (`*` allows any; no `cors_origin`, none). */
export function originAllowed(row: Pick<repo.UploadRow, 'cors_origin'>, origin: string): boolean {
  return row.cors_origin === '*' || row.cors_origin === origin;
}

/**
 * The file arrived: the upload takes it once (`asset_created`, `asset` filled) and its asset starts
 * `preparing`. Emits `streams.asset.created` and `streams.upload.asset_created` together, naming the file's
 * request when it came to the upload URL (not when the provider's notice says it arrived).
 */
export async function receiveUpload(deps: MediaDeps, row: repo.UploadRow, receivedBytes: number, request?: RequestRef): Promise<Upload> {
  const scope = withRequest({ tenantId: row.tenant_id, livemode: row.livemode }, request);
  return deps.db.transaction().execute(async (trx) => {
    const upload = (await repo.findUpload(trx, scope, row.id, { forUpdate: true }))!;
    if (upload.status !== 'waiting') throw ApiError.of('upload_url_used');
    const network = deps.networks.byProvider(upload.provider);
    const asset = await addAsset(trx, scope, {
      id: newId('asset'),
      status: 'preparing',
      source: 'upload',
      provider: upload.provider,
      provider_asset_id: upload.provider_upload_id,
      playback_policy: upload.playback_policy,
      upload_id: upload.id,
      metadata: JSON.stringify(upload.asset_metadata),
    });
    await addPlaybackId(trx, scope, { asset_id: asset.id, policy: upload.playback_policy });
    await emitAssetEvent(trx, scope, 'streams.asset.created', asset);
    const updated = await repo.updateUpload(trx, scope, upload.id, { status: 'asset_created', asset_id: asset.id, received_bytes: receivedBytes });
    const shown = serializeUpload(updated, deps.secrets);
    await emitEvent(trx, scope, {
      type: 'streams.upload.asset_created',
      subject: upload.id,
      object: shown,
      previousAttributes: { status: upload.status, asset: null },
    });
    await afterNetworkCreated(trx, deps, scope, asset, network, { status: 'preparing', duration: null });
    return shown;
  });
}
