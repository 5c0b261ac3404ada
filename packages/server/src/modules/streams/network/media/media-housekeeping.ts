import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../../../core/context';
import { jobOf, sendInTransaction } from '../../../../jobs/send-in-transaction';
import type { MediaVideoNetwork } from './media-network';
import { LIVE } from './media-layout';
import { listPreparingMediaAssets } from './media.repository';

const EVERY_MS = 60_000;
/** Scratch files older than this belong to a packaging run that died. */
const WORK_MAX_AGE_MS = 3_600_000;

/** Bytes under `dir`, and the newest modification time of its direct files. */
async function usage(dir: string): Promise<{ bytes: number; newest: number }> {
  let bytes = 0;
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      bytes += (await usage(path)).bytes;
      continue;
    }
    const s = await stat(path).catch(() => undefined);
    if (!s) continue;
    bytes += s.size;
    newest = Math.max(newest, s.mtimeMs);
  }
  return { bytes, newest };
}

/**
 * One pass: live HLS of broadcasts no encoder feeds any more is deleted once it is older than the DVR window
 * plus the longest reconnect window (while live, nginx's `hls_cleanup` keeps only the DVR window), with its copy
 * in the bucket, stale
 * scratch files go, and the disk used is logged. Past `SVC_MEDIA_MAX_DISK_MB` the network takes no new
 * encoders or uploads until space is freed (deleting assets frees their files).
 */
export async function housekeep(ctx: Pick<AppContext, 'config' | 'log'>, network: MediaVideoNetwork, now = Date.now()): Promise<number> {
  const { layout } = network;
  const keepLiveMs = (ctx.config.SVC_MEDIA_DVR_WINDOW_SECONDS + 3_600) * 1000;
  for (const ref of await readdir(layout.live).catch(() => [] as string[])) {
    if (network.publishers.has(ref)) continue;
    const { newest } = await usage(join(layout.live, ref));
    if (now - newest <= keepLiveMs) continue;
    // Its copy in the bucket first: should that fail, the directory is still there to try again.
    if (ctx.config.SVC_STORAGE_URL) await network.store.deletePrefix(`${LIVE}/${ref}/`);
    await rm(join(layout.live, ref), { recursive: true, force: true });
  }
  for (const name of await readdir(layout.work).catch(() => [] as string[])) {
    const s = await stat(join(layout.work, name)).catch(() => undefined);
    if (s && now - s.mtimeMs > WORK_MAX_AGE_MS) await rm(join(layout.work, name), { recursive: true, force: true });
  }
  const { bytes } = await usage(layout.root);
  const limit = ctx.config.SVC_MEDIA_MAX_DISK_MB * 1024 * 1024;
  network.diskFull = bytes > limit;
  const fields = { media_dir: layout.root, used_mb: Math.round(bytes / 1048576), limit_mb: ctx.config.SVC_MEDIA_MAX_DISK_MB };
  if (network.diskFull) ctx.log.error(fields, 'media network: disk limit reached; new encoders and uploads are refused');
  else ctx.log.info(fields, 'media network: disk use');
  return bytes;
}

async function requeuePreparing(ctx: Pick<AppContext, 'db'>, network: MediaVideoNetwork): Promise<void> {
  const rows = await listPreparingMediaAssets(ctx.db);
  if (rows.length === 0) return;
  await ctx.db.transaction().execute((trx) =>
    sendInTransaction(trx, rows.map((r) => jobOf(network.processingJob, { tenant_id: r.tenant_id, livemode: r.livemode, asset_id: r.id }))),
  );
}

export function startHousekeeping(ctx: Pick<AppContext, 'config' | 'log' | 'db'>, network: MediaVideoNetwork): { stop: () => void } {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    housekeep(ctx, network)
      .catch((err) => ctx.log.error({ err }, 'media network: housekeeping failed'))
      .finally(() => (running = false));
  };
  // Assets left preparing by a run that stopped mid-way are packaged again (the job skips finished ones).
  void requeuePreparing(ctx, network).catch((err) => ctx.log.error({ err }, 'media network: requeueing assets failed'));
  tick();
  const timer = setInterval(tick, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
