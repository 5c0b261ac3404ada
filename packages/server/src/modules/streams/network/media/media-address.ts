import { randomBytes } from 'node:crypto';
import type { Executor } from '../../../../db/database';
import { ApiError } from '../../../../core/errors';
import { InFlight } from '../../../../core/in-flight';
import { makeLocalSigningKey } from '../local-signing-key';
import type { NetworkPlayback, NetworkSigningKey, PlaybackUrlInput } from '../video-network';

/*
 * What an API process needs of the media network to sign and address its playback, without running it: the
 * keys are made on any server (nothing of them is on the media machine), and the player's address is the one the
 * media process recorded in the database when it started.
 */

/** A system key of the media network: made here, its private half sealed in the database by the caller. */
export const makeMediaSigningKey = (): Promise<NetworkSigningKey> => makeLocalSigningKey(`mkey_${randomBytes(10).toString('hex')}`);

/** The HLS address of a playback id, on the playback routes of the server at `baseUrl`. */
export function mediaPlaybackUrl(baseUrl: string, { playbackId, token }: PlaybackUrlInput): string {
  const url = `${baseUrl}/v1/streams/playback/${playbackId}.m3u8`;
  return token ? `${url}?token=${encodeURIComponent(token)}` : url;
}

/** Called by the media process as it starts: players of its streams and assets are sent to `baseUrl`. */
export async function recordMediaAddress(db: Executor, baseUrl: string, now: Date): Promise<void> {
  await db
    .insertInto('media_network_address')
    .values({ id: 1, public_base_url: baseUrl, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ public_base_url: baseUrl, updated_at: now }))
    .execute();
}

// A changed address (a media process moved) reaches the other processes within this bound.
const READ_EVERY_MS = 30_000;

/**
 * The media network's playback as a process that does not run it makes it: read from the recorded address, at
 * most every 30 s, shared by the requests arriving meanwhile. `502 provider_unavailable` while no media process
 * has ever started.
 */
export function mediaPlaybackElsewhere(db: Executor): () => Promise<NetworkPlayback> {
  let known: { playback: NetworkPlayback; readAt: number } | undefined;
  const reading = new InFlight<NetworkPlayback>();
  const read = async (): Promise<NetworkPlayback> => {
    const row = await db.selectFrom('media_network_address').select('public_base_url').where('id', '=', 1).executeTakeFirst();
    if (!row) throw ApiError.of('provider_unavailable', { message: 'The media network has not started on any server yet.' });
    const baseUrl = row.public_base_url;
    const playback: NetworkPlayback = {
      createSigningKey: makeMediaSigningKey,
      playbackUrl: (input) => mediaPlaybackUrl(baseUrl, input),
    };
    known = { playback, readAt: Date.now() };
    return playback;
  };
  return async () => (known && Date.now() - known.readAt < READ_EVERY_MS ? known.playback : reading.run('address', read));
}
