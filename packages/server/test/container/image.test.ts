import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { freePort } from '../kit/free-port';
import { SERVER_DIR } from '../built-server';
import { baseImage, missingTools, podman } from './podman';

/**
 * The Containerfile at the repository's root, built and run with podman: one image, non-root, no build tools,
 * configured from the environment; `svc migrate` as its own step, then the api role (two processes) and the
 * worker role from the same image against PostgreSQL on this machine. No registry is reachable here, so the base
 * is made with debootstrap (`podman.ts`) and passed as the BASE build argument; it is cached by a hash.
 */

const ROOT = join(SERVER_DIR, '..', '..');
// The test command installs podman, runc and debootstrap (scripts/test-suites.mjs, suite `container`);
// SVC_TEST_SKIP=container leaves this file out. Missing tools fail it rather than skip it.
const missing = missingTools();
if (missing) throw new Error(`the container image cannot be tested: ${missing} (or leave it out: SVC_TEST_SKIP=container)`);
const IMAGE = 'localhost/svc-test:latest';
const suffix = randomBytes(4).toString('hex');
const database = `svc_test_image_${suffix}`;
const containers: string[] = [];

afterAll(async () => {
  for (const name of containers) {
    try {
      podman(['rm', '-f', '-t', '5', name]);
    } catch {}
  }
  await dropTestDatabase(database);
});

const inImage = (...command: string[]) => podman(['run', '--rm', '--network', 'host', IMAGE, ...command]).trim();

async function ready(url: string, role: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${url}/health/ready`).catch(() => null);
    if (res?.status === 200) {
      expect(await res.json()).toMatchObject({ status: 'ready', role });
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${role} at ${url} never became ready`);
}

describe('the container image', () => {
  it('builds from a debootstrap base, runs as non-root without build tools, and runs each role', async () => {
    const base = baseImage();
    const buildStarted = Date.now();
    podman(['build', '--network', 'host', '--build-arg', `BASE=${base.name}`, '--build-arg', 'WITH_MEDIA=false', '-t', IMAGE, '-f', join(ROOT, 'Containerfile'), ROOT], {
      timeoutMs: 1_500_000,
    });
    const builtMs = Date.now() - buildStarted;
    console.log(`container image: base ${base.builtMs ? `built in ${Math.round(base.builtMs / 1000)} s` : 'reused'}, image built in ${Math.round(builtMs / 1000)} s`);

    expect(inImage('id', '-u')).toBe('1000');
    expect(inImage('sh', '-c', 'ls /app')).toBe(['build-info.json', 'dist', 'node_modules', 'package.json'].join('\n'));
    // Neither the compiler, the bundler, the test runner nor pnpm came into the final image.
    expect(inImage('sh', '-c', 'for t in pnpm tsc tsup vitest gcc make; do command -v $t; done; ls node_modules | grep -E "^(typescript|tsup|vitest)$"; true')).toBe('');

    await admin((c) => c.query(`CREATE DATABASE ${database}`));
    const env = (extra: Record<string, string>) =>
      Object.entries({ DATABASE_URL: databaseUrl(database), SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, HOST: '127.0.0.1', ...extra }).flatMap(
        ([k, v]) => ['-e', `${k}=${v}`],
      );
    // Roles other than `all` refuse the empty database until `svc migrate` ran.
    expect(() => podman(['run', '--rm', '--network', 'host', ...env({ SVC_ROLE: 'api', SVC_WORKERS: '1', PORT: '0' }), IMAGE])).toThrow(/svc migrate/);
    expect(podman(['run', '--rm', '--network', 'host', ...env({}), IMAGE, 'node', 'dist/cli.js', 'migrate'])).toMatch(/migrated: \d+ migration/);

    const [apiPort, workerPort] = [await freePort(), await freePort()];
    for (const [role, port, extra] of [['api', apiPort, { SVC_WORKERS: '2' }], ['worker', workerPort, {}]] as const) {
      const name = `svc-test-${role}-${suffix}`;
      containers.push(name);
      podman(['run', '-d', '--name', name, '--network', 'host', ...env({ SVC_ROLE: role, PORT: String(port), ...extra }), IMAGE]);
    }
    await ready(`http://127.0.0.1:${apiPort}`, 'api');
    await ready(`http://127.0.0.1:${workerPort}`, 'worker');
    const status = await fetch(`http://127.0.0.1:${apiPort}/v1/status`);
    expect(status.status).toBe(200);
    // SIGTERM drains and exits 0, as an orchestrator stops it.
    for (const name of containers) {
      // Up to the request drain and the job drain, 10 s each by default, on a loaded machine.
      podman(['stop', '-t', '45', name]);
      expect(podman(['inspect', '--format', '{{.State.ExitCode}}', name]).trim(), podman(['logs', '--tail', '15', name])).toBe('0');
    }
  }, 1_800_000);
});
