import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** What a test of the image needs on the machine; `null` when all of it is there. */
export function missingTools(): string | null {
  for (const tool of ['podman', 'runc', 'debootstrap']) {
    if (spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`]).status !== 0) return `${tool} is not installed (apt-get install -y podman runc debootstrap)`;
  }
  if (process.getuid?.() !== 0) return 'podman builds here as root';
  return null;
}

/**
 * podman as these machines run it: runc, host networking, no default ulimits (the container may not raise its
 * own), cgroups without systemd.
 */
const CONF_DIR = mkdtempSync(join(tmpdir(), 'svc-podman-conf-'));
const CONF = join(CONF_DIR, 'containers.conf');
writeFileSync(CONF, '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n');
const ENV = { ...process.env, CONTAINERS_CONF: CONF };
const GLOBAL = ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];

export function podman(args: string[], options: { input?: Buffer; timeoutMs?: number } = {}): string {
  return execFileSync('podman', [...GLOBAL, ...args], { env: ENV, input: options.input, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024 }).toString();
}

/** Runs podman in the background (a container in the foreground), its output kept. */
export function podmanChild(args: string[]) {
  const child = spawn('podman', [...GLOBAL, ...args], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return { child, output: () => out };
}

const imageExists = (name: string) => spawnSync('podman', [...GLOBAL, 'image', 'exists', name], { env: ENV }).status === 0;

/** Where Node lives on this machine (NodeSource's package: /usr/bin/node and /usr/lib/node_modules/npm). */
function hostNode() {
  const npm = join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm');
  if (!existsSync(npm)) throw new Error(`npm is not beside ${process.execPath}`);
  return { node: process.execPath, npm };
}

const RECIPE = 'debootstrap --variant=minbase --include=ca-certificates bookworm http://deb.debian.org/debian; node and npm under /usr/local; user node 1000; host CAs';
/** This machine's trusted certificates: its way out to the npm registry may pass a proxy of its own. */
const HOST_CAS = '/etc/ssl/certs/ca-certificates.crt';

/**
 * A base image with Node 20 when no registry is reachable: Debian bookworm from Debian's mirror (debootstrap),
 * with this machine's Node and npm copied in as the official image lays them out, and its `node` user. Named by
 * a hash of the recipe and the Node version, so a second run reuses it. Returns its name and how long it took.
 */
export function baseImage(): { name: string; builtMs: number } {
  const { node, npm } = hostNode();
  const hash = createHash('sha256').update(RECIPE).update(process.version).update(readFileSync(join(npm, 'package.json'))).update(readFileSync(HOST_CAS)).digest('hex').slice(0, 12);
  const name = `localhost/svc-test-base:${hash}`;
  if (imageExists(name)) return { name, builtMs: 0 };
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'svc-base-'));
  const rootfs = join(work, 'rootfs');
  const cache = join(tmpdir(), 'svc-debootstrap-cache');
  mkdirSync(cache, { recursive: true });
  try {
    execFileSync('debootstrap', ['--variant=minbase', '--include=ca-certificates', `--cache-dir=${cache}`, 'bookworm', rootfs, 'http://deb.debian.org/debian'], {
      stdio: 'ignore',
      timeout: 1_200_000,
    });
    cpSync(node, join(rootfs, 'usr/local/bin/node'));
    cpSync(npm, join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
    cpSync(HOST_CAS, join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
    appendFileSync(join(rootfs, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/sh\n');
    appendFileSync(join(rootfs, 'etc/group'), 'node:x:1000:\n');
    mkdirSync(join(rootfs, 'home/node'), { recursive: true });
    execFileSync('chown', ['1000:1000', join(rootfs, 'home/node')]);
    rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    mkdirSync(join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
    const tar = execFileSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 2 * 1024 * 1024 * 1024 });
    const env = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt'];
    podman(['import', ...env.flatMap((e) => ['--change', e]), '-', name], { input: tar });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { name, builtMs: Date.now() - started };
}
