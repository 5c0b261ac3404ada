import type { PlaybackSigningKeyRow } from '../../../db/streams-live.schema';
import type { Executor } from '../../../db/database';
import { isUniqueViolation } from '../../../core/db-errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { callNetwork } from '../network/video-networks';
import type { StreamsDeps } from '../streams-deps';
import { fingerprintOf } from './signing-keys.service';
import * as repo from './signing-keys.repository';

/*
 * The keys playback ids are signed and checked with: the system key the service signs with for each network,
 * and any key (system or tenant) a presented token names.
 */

/** The encryption context of a system key's sealed private half. */
export const privateKeyContext = (keyId: string) => `${keyId}:private_key`;

/** A signing key of the scope by id, revoked or not; `undefined` for anything else (including a malformed id). */
export async function findSigningKeyRow(db: Executor, scope: Scope, id: string): Promise<PlaybackSigningKeyRow | undefined> {
  return isIdOf('signing_key', id) ? repo.findSigningKey(db, scope, id) : undefined;
}

/** The scope's active system key for `provider`, made on the network the first time; concurrent makers agree on one. */
export async function findOrMakeSystemKey(deps: StreamsDeps, scope: Scope, provider: string): Promise<PlaybackSigningKeyRow> {
  const existing = await repo.findActiveSystemKey(deps.db, scope, provider);
  if (existing) return existing;
  const pair = await callNetwork(async () => (await deps.videoNetworks.playbackOf(provider)).createSigningKey());
  const id = newId('signing_key');
  try {
    return await repo.insertSigningKey(deps.db, scope, {
      id,
      kind: 'system',
      provider,
      provider_ref: pair.providerRef,
      public_key_pem: pair.publicKeyPem,
      fingerprint: fingerprintOf(pair.publicKeyPem),
      private_key_sealed: deps.secrets.encrypt(pair.privateKeyPem, privateKeyContext(id)),
      created_at: deps.now(),
    });
  } catch (err) {
    if (!isUniqueViolation(err, 'playback_signing_keys_one_system')) throw err;
    return (await repo.findActiveSystemKey(deps.db, scope, provider))!;
  }
}
