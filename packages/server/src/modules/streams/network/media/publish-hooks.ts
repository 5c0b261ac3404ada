import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { LiveStreamRow } from '../../../../db/streams-live.schema';
import { secretsEqual } from '../../../../core/auth/api-key-secret';
import type { Scope } from '../../../../core/scope';
import { applySignal, lockLiveStream } from '../../live-streams/live-stream-transitions';
import { secretContext } from '../../live-streams/live-streams.serializer';
import { targetKeyContext } from '../../live-streams/simulcast-targets.service';
import type { LiveStreamSignal } from '../../live-streams/live-stream-state';
import type { StreamsDeps } from '../../streams-deps';
import { type MediaVideoNetwork, refOfStreamKey } from './media-network';
import { findMediaLiveStreamScope, listMediaStreamsInFlight, listRelayTargets } from './media.repository';

export type PublishDecision = { allowed: true; ref: string } | { allowed: false; reason: string };

/** How long the first HLS fragment may take before the stream stays `connecting` (nginx drops an idle encoder). */
const ACTIVE_WAIT_MS = 30_000;

/**
 * nginx's `on_publish`: an encoder presents `name` (the stream key). It may publish when the key is the
 * stream's current one (compared in constant time, under the row lock so a reset racing it is seen) and the
 * stream is not disabled; the stream then moves to `connecting`, and to `active` once video is packaged.
 */
export async function onPublish(deps: StreamsDeps, network: MediaVideoNetwork, log: Logger, name: string, clientId: string): Promise<PublishDecision> {
  const ref = refOfStreamKey(name);
  const found = ref ? await findMediaLiveStreamScope(deps.db, ref) : undefined;
  if (!ref || !found) return { allowed: false, reason: 'unknown stream key' };
  if (network.diskFull) return { allowed: false, reason: 'the media disk is full' };
  if (network.publishers.has(ref)) return { allowed: false, reason: 'another encoder is publishing this stream' };
  const decision = await deps.db.transaction().execute(async (trx): Promise<PublishDecision> => {
    const row = await lockLiveStream(trx, found.scope, found.id);
    const current = deps.secrets.decrypt(row.stream_key_sealed, secretContext(row.id, 'stream_key'));
    if (!secretsEqual(name, current)) return { allowed: false, reason: 'stream key is not the current one' };
    if (row.status === 'disabled') return { allowed: false, reason: 'stream is disabled' };
    await applySignal(trx, deps, found.scope, row, 'connected');
    return { allowed: true, ref };
  });
  if (!decision.allowed) {
    log.info({ liveStream: found.id, reason: decision.reason }, 'media network: encoder refused');
    return decision;
  }
  network.publishers.set(ref, clientId);
  log.info({ liveStream: found.id }, 'media network: encoder connected');
  void whenVideoFlows(deps, network, log, found.id, found.scope, ref, clientId);
  void startRelays(deps, network, log, found.id, found.scope, ref);
  return decision;
}

/** Newest modification time of the fragments in a live input's HLS directory (0 when there are none). */
async function newestFragment(dir: string): Promise<number> {
  let newest = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.endsWith('.ts')) newest = Math.max(newest, await stat(join(dir, name)).then((s) => s.mtimeMs, () => 0));
  }
  return newest;
}

/** `active` is when nginx writes the first HLS fragment of this publish: video flows and is being packaged. */
async function whenVideoFlows(deps: StreamsDeps, network: MediaVideoNetwork, log: Logger, id: string, scope: Scope, ref: string, clientId: string) {
  const since = Date.now() - 1_000;
  const dir = join(network.layout.live, ref);
  for (const start = Date.now(); Date.now() - start < ACTIVE_WAIT_MS; ) {
    await new Promise((r) => setTimeout(r, 250));
    if (network.publishers.get(ref) !== clientId) return;
    if ((await newestFragment(dir)) < since) continue;
    await signal(deps, log, id, scope, (row) => (row.status === 'connecting' && network.publishers.get(ref) === clientId ? 'active' : null));
    return;
  }
}

async function startRelays(deps: StreamsDeps, network: MediaVideoNetwork, log: Logger, id: string, scope: Scope, ref: string) {
  try {
    for (const t of await listRelayTargets(deps.db, scope, id)) {
      if (!t.provider_ref) continue;
      const streamKey = deps.secrets.decrypt(t.stream_key_sealed, targetKeyContext(t.id));
      network.relays.start(ref, { ref: t.provider_ref, url: t.url, streamKey });
    }
  } catch (err) {
    log.error({ err, liveStream: id }, 'media network: simulcast relays could not start');
  }
}

/** Applies the signal `choose` picks for the locked row, if any; a move the state table refuses is ignored. */
async function signal(deps: StreamsDeps, log: Logger, id: string, scope: Scope, choose: (row: LiveStreamRow) => LiveStreamSignal | null) {
  try {
    await deps.db.transaction().execute(async (trx) => {
      const row = await lockLiveStream(trx, scope, id);
      const next = choose(row);
      if (next) await applySignal(trx, deps, scope, row, next);
    });
  } catch (err) {
    log.warn({ err, liveStream: id }, 'media network: a stream report was not applied');
  }
}

/** The encoder left while active: `disconnected`, the reconnect window opens. Still `connecting`: the broadcast never started. */
const afterEncoderLeft = (row: LiveStreamRow): LiveStreamSignal | null =>
  row.status === 'active' ? 'disconnected' : row.status === 'connecting' ? 'idle' : null;

/** nginx's `on_publish_done`, also sent when the service dropped the encoder. Reports of a replaced publisher are ignored. */
export async function onPublishDone(deps: StreamsDeps, network: MediaVideoNetwork, log: Logger, name: string, clientId: string): Promise<void> {
  const ref = refOfStreamKey(name);
  if (!ref) return;
  // Only the encoder this process let in counts: a refused one, or one replaced since, reports nothing.
  if (network.publishers.get(ref) !== clientId) return;
  network.publishers.delete(ref);
  network.relays.stopInput(ref);
  const found = await findMediaLiveStreamScope(deps.db, ref);
  if (!found) return;
  log.info({ liveStream: found.id }, 'media network: encoder left');
  await signal(deps, log, found.id, found.scope, afterEncoderLeft);
}

/**
 * After nginx (re)starts no encoder is connected: streams still `connecting` or `active` lost theirs, so they
 * move on as if it had left (the encoder reconnecting within the window continues the broadcast).
 */
export async function reconcilePublishers(deps: StreamsDeps, network: MediaVideoNetwork, log: Logger): Promise<void> {
  network.publishers.clear();
  network.relays.stopAll(false);
  for (const s of await listMediaStreamsInFlight(deps.db)) {
    await signal(deps, log, s.id, { tenantId: s.tenant_id, livemode: s.livemode }, afterEncoderLeft);
  }
}
