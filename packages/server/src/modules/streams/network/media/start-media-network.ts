import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import type { AppContext } from '../../../../core/context';
import type { ObjectStore } from '../../../../core/storage/object-store';
import { openObjectStore } from '../../../../core/storage/open-object-store';
import { streamsDeps } from '../../streams-deps';
import { videoNetworksPart } from '../../streams-parts';
import { findMediaBinaries } from './media-binaries';
import { startHousekeeping } from './media-housekeeping';
import { LiveHlsCopier } from './live-hls-copier';
import { recordMediaAddress } from './media-address';
import { mediaLayout } from './media-layout';
import { MEDIA_PROVIDER, MediaVideoNetwork } from './media-network';
import { renderNginxConfig } from './nginx-config';
import { NginxSupervisor } from './nginx-supervisor';
import { reconcilePublishers } from './publish-hooks';

/** Seconds per live HLS fragment: short enough for a few seconds of latency, long enough for a keyframe interval. */
export const FRAGMENT_SECONDS = 2;
// nginx drops privileges to this user when the server runs as root; it owns what nginx writes.
const NGINX_USER = { name: 'nobody', group: 'nogroup', uid: 65534, gid: 65534 };

/** A free TCP port on `host` (`SVC_MEDIA_RTMP_PORT=0`): nginx cannot report the port it was given. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `dir` and every directory above it. */
function ancestors(dir: string): string[] {
  const all = [dir];
  while (dirname(all.at(-1)!) !== all.at(-1)) all.push(dirname(all.at(-1)!));
  return all;
}

export interface RunningMediaNetwork {
  network: MediaVideoNetwork;
  rtmpUrl: string;
  /** nginx's master process now (it changes when nginx is restarted). */
  nginxPid: () => number | undefined;
  stop: () => Promise<void>;
}

/**
 * Starts the service's own media network when `SVC_MEDIA_NETWORK` allows it and nginx, its RTMP module and
 * ffmpeg are installed: writes nginx's configuration into the media directory, runs nginx under supervision
 * and makes `media` the live-mode network of tenants whose operator chose none. `internalUrl` is where this
 * server listens, for nginx's callbacks. Returns `undefined` (after one log line) when it does not run.
 */
export async function startMediaNetwork(ctx: AppContext, internalUrl: string): Promise<RunningMediaNetwork | undefined> {
  const { config, log } = ctx;
  if (config.SVC_MEDIA_NETWORK === 'off') return undefined;
  const binaries = findMediaBinaries();
  if ('missing' in binaries) {
    log.warn(`media network off: ${binaries.missing.join(', ')} not installed; live-mode streams need a network chosen by the operator`);
    return undefined;
  }
  const { found } = binaries;
  const layout = mediaLayout(config.SVC_MEDIA_DIR ?? join(config.SVC_DATA_DIR, 'media'));
  const asRoot = process.getuid?.() === 0;
  for (const dir of [layout.root, layout.nginx, join(layout.nginx, 'tmp'), layout.live, layout.recordings, layout.work]) {
    mkdirSync(dir, { recursive: true });
  }
  if (asRoot) {
    // nginx's workers (not root) pass through every directory above the media root and write live HLS and
    // recordings. The data directory is the server's own: it is opened for passing through, as for PostgreSQL.
    const dataDir = resolve(config.SVC_DATA_DIR);
    if (layout.root.startsWith(`${dataDir}/`)) chmodSync(dataDir, statSync(dataDir).mode | 0o111);
    chmodSync(layout.root, 0o711);
    const closed = ancestors(layout.root).find((dir) => (statSync(dir).mode & 0o001) === 0);
    if (closed) {
      log.warn(`media network off: nginx's workers (user ${NGINX_USER.name}) cannot pass through ${closed}; set SVC_MEDIA_DIR elsewhere or allow o+x`);
      return undefined;
    }
    for (const dir of [layout.live, layout.recordings, join(layout.nginx, 'tmp')]) chownSync(dir, NGINX_USER.uid, NGINX_USER.gid);
  }
  const host = config.HOST === '::' ? '::' : config.HOST;
  const rtmpPort = config.SVC_MEDIA_RTMP_PORT === 0 ? await freePort(host === '::' ? '::1' : host) : config.SVC_MEDIA_RTMP_PORT;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const rtmpUrl = config.SVC_MEDIA_PUBLIC_RTMP_URL?.replace(/\/$/, '') ?? `rtmp://${shownHost}:${rtmpPort}/live`;
  const hookSecret = randomBytes(24).toString('hex');
  const configPath = join(layout.nginx, 'nginx.conf');
  writeFileSync(
    configPath,
    renderNginxConfig({
      layout,
      modulePath: found.rtmpModule,
      rtmpListen: host.includes(':') ? `[${host}]` : host,
      rtmpPort,
      hookBase: `${internalUrl}/internal/media`,
      hookSecret,
      fragmentSeconds: FRAGMENT_SECONDS,
      dvrWindowSeconds: config.SVC_MEDIA_DVR_WINDOW_SECONDS,
      user: asRoot ? `${NGINX_USER.name} ${NGINX_USER.group}` : null,
    }),
    { mode: 0o600 },
  );

  let store: ObjectStore;
  try {
    store = openObjectStore(config.SVC_STORAGE_URL, 'media', layout.root);
  } catch (err) {
    log.error({ err: (err as Error).message }, 'media network off: SVC_STORAGE_URL cannot be used');
    return undefined;
  }
  const network = new MediaVideoNetwork({
    layout,
    store,
    rtmpUrl,
    rtmpPort,
    baseUrl: config.baseUrl,
    hookSecret,
    ffmpeg: found.ffmpeg,
    ffprobe: found.ffprobe,
    log,
  });
  const deps = streamsDeps(ctx);
  const supervisor = new NginxSupervisor(found.nginx, layout.nginx, configPath, log, () => reconcilePublishers(deps, network, log));
  try {
    await supervisor.start();
  } catch (err) {
    log.error({ err: (err as Error).message }, 'media network off: nginx did not start (is the RTMP port taken?)');
    return undefined;
  }
  // API processes on other machines send the players of its streams and assets to this address.
  await recordMediaAddress(ctx.db, config.baseUrl, deps.now());
  const networks = videoNetworksPart.of(ctx);
  networks.use(network);
  networks.defaultLiveNetwork = MEDIA_PROVIDER;
  // Encoders of a previous run are gone: their streams move on as if they had left.
  await reconcilePublishers(deps, network, log);
  const housekeeping = startHousekeeping(ctx, network);
  // With a bucket, live HLS goes there too, so API processes on other machines serve it (docs/self-hosting.md).
  const copier = config.SVC_STORAGE_URL ? new LiveHlsCopier(layout.live, store, log) : null;
  copier?.start();
  log.info({ rtmp_url: rtmpUrl, media_dir: layout.root, storage: store.description, pid: supervisor.pid }, 'media network running (nginx-rtmp, ffmpeg)');
  return {
    network,
    rtmpUrl,
    nginxPid: () => supervisor.pid,
    stop: async () => {
      housekeeping.stop();
      await copier?.stop();
      network.relays.stopAll();
      await supervisor.stop();
    },
  };
}
