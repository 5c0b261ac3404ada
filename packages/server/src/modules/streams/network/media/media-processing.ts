import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../../../core/context';
import { UrlRefused } from '../../../../core/outbound/url-policy';
import type { Scope } from '../../../../core/scope';
import { finishProcessing, type FinishSimulatedAssetJob, type ProcessingOutcome } from '../../assets/asset-processing';
import * as assetsRepo from '../../assets/assets.repository';
import type { AssetRow } from '../../assets/assets.serializer';
import { findLiveStream } from '../../live-streams/live-streams.repository';
import { fetchSource } from './fetch-source';
import { packageHls, probe, UNTRUSTED_INPUT } from './ffmpeg-tools';
import { mediaNetworkOf } from './media-hooks.router';
import { ASSETS, UPLOADS } from './media-layout';
import type { MediaVideoNetwork } from './media-network';

/** Recording files of a live input: `<ref>-<unix seconds>.flv`, one per publish (a reconnect starts another). */
async function recordingFiles(network: MediaVideoNetwork, liveRef: string, until: Date): Promise<string[]> {
  const limit = until.getTime() / 1000 + 10;
  return (await readdir(network.layout.recordings))
    .map((name) => ({ name, m: new RegExp(`^${liveRef}-(\\d+)\\.flv$`).exec(name) }))
    .filter((f) => f.m && Number(f.m[1]) <= limit)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]))
    .map((f) => join(network.layout.recordings, f.name));
}

/** What a packaged asset no longer needs: a recording part on this disk, or an upload in the store. */
type Consumed = { path: string } | { key: string };

/** The object store failed (not the media): the job runs again rather than erroring the asset. */
class StorageFailed extends Error {}

const stored = <T>(work: Promise<T>): Promise<T> =>
  work.catch((err: Error) => {
    throw new StorageFailed(`media storage: ${err.message}`);
  });

/** ffmpeg's input arguments for the asset, after fetching or listing what it needs; an Error explains a failure. */
async function inputOf(ctx: AppContext, network: MediaVideoNetwork, scope: Scope, row: AssetRow, work: string): Promise<{ args: string[]; consumed: Consumed[] }> {
  if (row.source === 'upload') {
    const file = join(work, 'source');
    const key = `${UPLOADS}/${row.provider_asset_id!}`;
    if (!(await stored(network.store.getFile(key, file)))) throw new Error('The uploaded file is missing from the media storage.');
    return { args: [...UNTRUSTED_INPUT, '-i', file], consumed: [{ key }] };
  }
  if (row.source === 'url') {
    const file = join(work, 'source');
    try {
      await fetchSource(row.source_url!, file, scope.livemode, ctx.config.SVC_SIMULATED_UPLOAD_MAX_BYTES, ctx.resolveHost);
    } catch (err) {
      throw new Error(err instanceof UrlRefused ? `The URL cannot be fetched: ${err.message}` : (err as Error).message);
    }
    return { args: [...UNTRUSTED_INPUT, '-i', file], consumed: [] };
  }
  if (row.source === 'recording') {
    const stream = await findLiveStream(ctx.db, scope, row.live_stream_id!);
    const liveRef = stream?.provider_ref ?? (await ctx.db.selectFrom('live_streams').select('provider_ref').where('id', '=', row.live_stream_id!).executeTakeFirst())?.provider_ref;
    const files = liveRef ? await recordingFiles(network, liveRef, row.recording_ended_at ?? new Date()) : [];
    if (files.length === 0) throw new Error('The broadcast left no recording.');
    const list = join(work, 'parts.txt');
    await writeFile(list, files.map((f) => `file '${f.replace(/'/g, "'\\''")}'`).join('\n'));
    return { args: ['-f', 'concat', '-safe', '0', '-i', list], consumed: files.map((path) => ({ path })) };
  }
  throw new Error(`The media network does not prepare ${row.source} assets.`);
}

/** Puts the packaged HLS in the store, segments first, so a stored playlist never names a missing segment. */
async function storePackaged(network: MediaVideoNetwork, ref: string, dir: string): Promise<void> {
  const prefix = `${ASSETS}/${ref}/`;
  await network.store.deletePrefix(prefix);
  const files = (await readdir(dir)).sort((a, b) => Number(a === 'index.m3u8') - Number(b === 'index.m3u8'));
  for (const name of files) await network.store.putFile(`${prefix}${name}`, join(dir, name));
}

/** Probes and packages one asset; the outcome is what the asset becomes. */
async function prepare(ctx: AppContext, network: MediaVideoNetwork, scope: Scope, row: AssetRow): Promise<{ outcome: ProcessingOutcome; consumed: Consumed[] }> {
  const work = join(network.layout.work, row.id);
  await mkdir(work, { recursive: true });
  try {
    const { args, consumed } = await inputOf(ctx, network, scope, row, work);
    const source = args.at(-1)!;
    const probed = row.source === 'recording' ? { duration: 0, hasVideo: true, hasAudio: false } : await probe(network.options.ffprobe, source, UNTRUSTED_INPUT);
    if (!probed) {
      return { outcome: { event: 'errored', error: 'The file is not a video or audio file: ffprobe found no audio or video stream in it.' }, consumed };
    }
    const out = join(work, 'hls');
    await mkdir(out, { recursive: true });
    try {
      await packageHls(network.options.ffmpeg, args, out);
    } catch {
      return { outcome: { event: 'errored', error: 'ffmpeg could not package the media as HLS.' }, consumed };
    }
    const packaged = await probe(network.options.ffprobe, join(out, 'index.m3u8'));
    if (!packaged) return { outcome: { event: 'errored', error: 'The packaged HLS could not be read back.' }, consumed };
    await stored(storePackaged(network, row.provider_asset_id!, out));
    return { outcome: { event: 'ready', duration: Math.round(packaged.duration * 1000) / 1000 }, consumed };
  } catch (err) {
    if (err instanceof StorageFailed) throw err;
    return { outcome: { event: 'errored', error: (err as Error).message }, consumed: [] };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The processing job: an asset of the media network that is `preparing` with something to prepare becomes
 * `ready` (`streams.asset.ready`) with its duration from ffprobe, or `errored` with a clear `error`. Safe to
 * run twice: the asset is finished under its row lock only while still `preparing`.
 */
export async function processMediaAsset(ctx: AppContext, job: FinishSimulatedAssetJob): Promise<void> {
  const network = mediaNetworkOf(ctx);
  if (!network) throw new Error('the media network is not running on this server');
  const scope = { tenantId: job.tenant_id, livemode: job.livemode };
  const row = await assetsRepo.findAsset(ctx.db, scope, job.asset_id);
  if (!row || row.status !== 'preparing') return;
  if (row.source === 'recording' && !row.recording_ended_at) return;
  const { outcome, consumed } = await prepare(ctx, network, scope, row);
  const finished = await ctx.db.transaction().execute(async (trx) => {
    const locked = await assetsRepo.findAsset(trx, scope, job.asset_id, { forUpdate: true });
    if (!locked || locked.status !== 'preparing') return false;
    await finishProcessing(trx, scope, locked, outcome);
    return true;
  });
  ctx.log.info({ asset: row.id, source: row.source, outcome: outcome.event }, 'media network: asset prepared');
  // The packaged HLS is what plays from now on; the recording parts and the upload are not kept twice.
  if (finished && outcome.event === 'ready') {
    for (const c of consumed) await ('path' in c ? rm(c.path, { force: true }) : network.store.delete(c.key));
  }
}
