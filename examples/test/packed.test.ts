import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, packPackages, run } from '@svc/release-check';
import { startServer, type RunningServer } from '@svc/server/testing';

// The examples as a tenant gets them: copied out of the workspace, the packed packages installed with npm.
const examples = fileURLToPath(new URL('..', import.meta.url));
let dir: string;
let api: RunningServer;
const children: ChildProcess[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts an example with `node --import tsx` and waits for the line it prints once listening. */
async function startExample(script: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn('node', ['--import', 'tsx', script], { cwd: dir, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/http:\/\/127\.0\.0\.1:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  const { version: expressVersion } = JSON.parse(readFileSync(join(examples, 'node_modules/express/package.json'), 'utf8')) as { version: string };
  dir = installPacked('examples', await packPackages(), { express: expressVersion, tsx: '^4.20.0', 'hls.js': '1.7.4' });
  cpSync(join(examples, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(examples, 'player'), join(dir, 'player'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, type: 'module' }, null, 2));
  api = await startServer();
}, 300_000);
afterAll(async () => {
  for (const child of children) child.kill();
  await api?.stop();
});

describe('the examples, outside the workspace with the packed packages', () => {
  it('resolve every @svc package from the installed tarballs', () => {
    const resolved = run('node', ['--input-type=module', '-e', "for (const p of ['@svc/sdk-node', '@svc/sdk-browser', '@svc/webhook-verify', '@svc/contract']) console.log(import.meta.resolve(p))"], dir);
    const paths = resolved.stdout.trim().split('\n');
    expect(paths).toHaveLength(4);
    for (const path of paths) expect(path).toContain(`${dir}/node_modules/@svc/`);
  });

  it('run the tenant server: grant, token, verified webhooks and refund against the reference server', async () => {
    const { keys } = await api.createTenant('Packed examples');
    const tenant = await startExample('src/tenant-server.ts', { SVC_API_KEY: keys.test.secret, SVC_PUBLISHABLE_KEY: keys.test.publishable, SVC_BASE_URL: api.url });
    const post = async (path: string, body: object) =>
      (await fetch(`${tenant}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    await expect.poll(async () => (await (await fetch(`${tenant}/config`)).json()).streamId, { timeout: 20_000 }).toMatch(/^ls_/);
    expect(await post('/checkout', { viewer: 'viewer-7' })).toMatchObject({ status: 'active' });
    expect((await post('/token', { viewer: 'viewer-7' })).token.split('.')).toHaveLength(3);
    const types = async () => ((await (await fetch(`${tenant}/events`)).json()) as Array<{ type: string }>).map((e) => e.type);
    await expect.poll(types, { timeout: 30_000, interval: 500 }).toContain('access.entitlement.granted');
    expect(await post('/refund', { viewer: 'viewer-7' })).toEqual({ status: 'revoked' });
    await expect.poll(types, { timeout: 30_000, interval: 500 }).toContain('access.entitlement.revoked');

    const player = await startExample('src/player-server.ts', { TENANT_SERVER_URL: tenant });
    expect(await (await fetch(player)).text()).toContain(`content="${tenant}"`);
    const served = await (await fetch(`${player}/sdk-browser.js`)).text();
    expect(served).toBe(readFileSync(join(dir, 'node_modules/@svc/sdk-browser/dist/index.js'), 'utf8'));
    expect(served).toContain('SvcBrowser');
  }, 120_000);

  it('run the live show: the member publishes, the fan books, pays, watches, is scanned in and refunded, every webhook verified', async () => {
    const { keys } = await api.createTenant('Packed live show');
    const env = { ...process.env, SVC_API_KEY: keys.test.secret, SVC_PUBLISHABLE_KEY: keys.test.publishable, SVC_BASE_URL: api.url };
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('node', ['--import', 'tsx', 'src/live-show.ts'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let text = '';
      child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (text += c.toString()));
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`live-show exited with ${code}: ${text}`))));
    });
    expect(output).toMatch(/organizer: event \S+ published/);
    expect(output).toMatch(/fan: order [A-Z0-9]{8} paid/);
    expect(output).toContain('fan: 2 tickets, valid, valid');
    expect(output).toContain('tenant: stream active');
    expect(output).toContain('heartbeat: active');
    expect(output).toContain('organizer: door scans ok, already_redeemed');
    expect(output).toContain('organizer: refund succeeded; fan: session ended, entitlement_inactive');
    expect(output).toMatch(/tenant: \d+ webhooks verified, 0 refused/);
    expect(output).toContain('live show: done');
  }, 180_000);
});
