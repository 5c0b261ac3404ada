// The test suites that need programs from outside the npm registry: the Debian packages that bring them, how to
// tell that each is there, and the test files that use them, by package directory. `pnpm test` installs what is
// missing (scripts/prerequisites.mjs); `SVC_TEST_SKIP=browser,media` leaves named suites out instead, and the run's
// summary lists them.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const onPath = (name) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Whether Debian's PostgreSQL server and client tools of one major version are installed. */
function debianPostgresTools() {
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((major) => ['initdb', 'postgres', 'pg_dump', 'pg_restore'].every((b) => existsSync(`${root}/${major}/bin/${b}`)));
}

/** @type {Record<string, {about: string, needs: {debian: string, present: () => boolean}[], files: Record<string, string[]>}>} */
export const SUITES = {
  browser: {
    about: 'pages and SDKs driven in headless Chromium',
    needs: [{ debian: 'chromium', present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') }],
    files: {
      'packages/server': ['test/ticketing/checkout-browser.test.ts', 'test/whitelabel/whitelabel-browser.test.ts', 'test/payments/live-checkout-browser.test.ts'],
      'packages/console': ['test/console.e2e.test.ts', 'test/console-streams-money.e2e.test.ts', 'test/console-commerce.e2e.test.ts'],
      'packages/sdk-browser': ['test/booking.test.ts', 'test/playback-session.test.ts'],
      examples: ['test/examples.test.ts', 'test/live-show.test.ts', 'test/live-player.test.ts'],
    },
  },
  media: {
    about: "the service's own media network: nginx-rtmp and ffmpeg",
    needs: [
      { debian: 'ffmpeg', present: () => onPath('ffmpeg') },
      { debian: 'nginx', present: () => existsSync('/usr/sbin/nginx') },
      { debian: 'libnginx-mod-rtmp', present: () => existsSync('/usr/lib/nginx/modules/ngx_rtmp_module.so') },
    ],
    files: {
      'packages/server': ['test/streams/media-network-*.test.ts', 'test/streams/playback-cdn.test.ts'],
      examples: ['test/live-player.test.ts'],
    },
  },
  pgbouncer: {
    about: 'the server behind PgBouncer in transaction mode',
    needs: [{ debian: 'pgbouncer', present: () => existsSync(process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer') }],
    files: { 'packages/server': ['test/platform/pgbouncer.test.ts', 'test/platform/scale-out.test.ts'] },
  },
  failover: {
    about: 'PostgreSQL with automatic failover: pg_auto_failover behind HAProxy',
    needs: [
      { debian: 'postgresql-15-auto-failover', present: () => existsSync('/usr/bin/pg_autoctl') },
      { debian: 'haproxy', present: () => existsSync('/usr/sbin/haproxy') },
    ],
    files: { 'packages/server': ['test/platform/database-failover.test.ts'] },
  },
  container: {
    about: 'the container image, built and run with podman (as root) on a base made with debootstrap',
    needs: [
      { debian: 'podman', present: () => onPath('podman') },
      { debian: 'runc', present: () => onPath('runc') || existsSync('/usr/sbin/runc') },
      { debian: 'debootstrap', present: () => onPath('debootstrap') || existsSync('/usr/sbin/debootstrap') },
    ],
    files: { 'packages/server': ['test/container/image.test.ts'] },
  },
  backup: {
    about: "backup and restore with PostgreSQL's own tools, on a cluster of their version",
    needs: [{ debian: 'postgresql', present: () => debianPostgresTools() }],
    files: { 'packages/server': ['test/platform/backup-restore.test.ts'] },
  },
};

/** The suites named in SVC_TEST_SKIP; an unknown name is an error, so that a typo never skips nothing quietly. */
export function optedOut() {
  const names = (process.env.SVC_TEST_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(n in SUITES));
  if (unknown.length > 0) throw new Error(`SVC_TEST_SKIP names no such suite: ${unknown.join(', ')} (suites: ${Object.keys(SUITES).join(', ')})`);
  return names;
}

/** The test files of `packageDir` (relative to the repository's root) that the opted-out suites leave out. */
export function excludedFiles(packageDir) {
  return optedOut().flatMap((name) => SUITES[name].files[packageDir] ?? []);
}

/** The Debian packages that the suites to run need and that are not there. */
export function missingPackages() {
  const skipped = new Set(optedOut());
  const missing = Object.entries(SUITES)
    .filter(([name]) => !skipped.has(name))
    .flatMap(([, suite]) => suite.needs.filter((n) => !n.present()).map((n) => n.debian));
  return [...new Set(missing)];
}
