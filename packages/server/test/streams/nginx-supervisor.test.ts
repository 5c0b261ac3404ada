import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { NginxSupervisor } from '../../src/modules/streams/network/media/nginx-supervisor';

const dir = mkdtempSync(join(tmpdir(), 'svc-nginx-supervisor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the media network nginx supervisor', () => {
  it('backs off an nginx that starts and dies at once, instead of restarting it four times a second', async () => {
    // Stands in for an nginx that comes up (its control socket appears) and exits a moment later, as one whose port
    // another process holds does; each start is counted.
    const binary = join(dir, 'nginx');
    writeFileSync(binary, `#!/bin/sh\necho start >> "${dir}/starts"\ntouch "$2/control.sock"\nsleep 0.2\nexit 1\n`);
    chmodSync(binary, 0o755);
    let reconciled = 0;
    const supervisor = new NginxSupervisor(binary, dir, join(dir, 'nginx.conf'), pino({ level: 'silent' }), async () => {
      reconciled++;
    });
    await supervisor.start();
    await new Promise((r) => setTimeout(r, 4000));
    await supervisor.stop();
    const starts = readFileSync(join(dir, 'starts'), 'utf8').trim().split('\n').length;
    // Waits of 0.25, 0.5, 1 and 2 s between runs of 0.2 s: at most five starts in four seconds (without the
    // backoff, about nine).
    expect(starts).toBeGreaterThanOrEqual(3);
    expect(starts).toBeLessThanOrEqual(5);
    expect(reconciled).toBe(starts - 1);
  }, 20_000);
});
