import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** The edge configuration the docs give operators (docs/cdn/nginx-hls-cdn.conf), tested as it is. */
export const CDN_CONFIG = join(import.meta.dirname, '../../../../docs/cdn/nginx-hls-cdn.conf');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface RunningCdn {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Debian's nginx as a CDN edge in front of `origin` (host:port): its own process on a free loopback port, with
 * the documented configuration, its cache and files in a temporary directory. As root its workers run as nobody.
 */
export async function startCdn(origin: string): Promise<RunningCdn> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cdn-'));
  chmodSync(dir, 0o755);
  const cache = join(dir, 'cache');
  mkdirSync(cache);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(cache, 65534, 65534);
  const port = await freePort();
  const edge = readFileSync(CDN_CONFIG, 'utf8')
    .replaceAll('@ORIGIN@', origin)
    .replaceAll('@LISTEN@', `127.0.0.1:${port}`)
    .replaceAll('@CACHE_DIR@', cache);
  writeFileSync(join(dir, 'edge.conf'), edge);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(cache, `${t}-temp`)};`);
  const conf = [
    asRoot ? 'user nobody nogroup;' : '',
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    '  access_log off;',
    ...temp,
    `  include ${join(dir, 'edge.conf')};`,
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), `${conf}\n`);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/`).then(() => true, () => false);
    if (up) break;
    const log = (() => { try { return readFileSync(join(dir, 'error.log'), 'utf8'); } catch { return ''; } })();
    if (i > 100 || child.exitCode !== null) throw new Error(`nginx did not start:\n${output}\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
