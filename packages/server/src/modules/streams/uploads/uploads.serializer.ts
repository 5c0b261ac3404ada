import type { Upload } from '@svc/contract';
import type { SecretBox } from '../../../core/secret-box';
import type { UploadRow } from './uploads.repository';

/** The sealed URL is bound to the upload's id: a ciphertext copied onto another row does not open. */
export const sealUploadUrl = (secrets: SecretBox, uploadId: string, url: string) => secrets.encrypt(url, `upload:${uploadId}`);
export const openUploadUrl = (secrets: SecretBox, row: Pick<UploadRow, 'id' | 'url_sealed'>) =>
  secrets.decrypt(row.url_sealed, `upload:${row.id}`);

/** The upload as the API shows it; `url` only while it still waits for its file (events drop it entirely). */
export function serializeUpload(row: UploadRow, secrets: SecretBox): Upload {
  return {
    id: row.id,
    object: 'upload',
    livemode: row.livemode,
    status: row.status,
    url: row.status === 'waiting' ? openUploadUrl(secrets, row) : null,
    cors_origin: row.cors_origin,
    asset: row.asset_id,
    new_asset_settings: { playback_policy: row.playback_policy, metadata: row.asset_metadata },
    max_bytes: Number(row.max_bytes),
    provider: row.provider,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
