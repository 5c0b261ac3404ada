import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLock } from '../src/pack-packages';

const lockIn = () => join(mkdtempSync(join(tmpdir(), 'svc-pack-lock-')), 'pack.lock');

describe('the pack lock', () => {
  it('waits for a living holder however long it holds the lock, then runs', async () => {
    const lock = lockIn();
    // A holder that lives three seconds and releases the lock as it exits, as a slow pack would.
    const holder = spawn(process.execPath, ['-e', `
      const fs = require('node:fs');
      fs.mkdirSync(${JSON.stringify(lock)}); fs.writeFileSync(${JSON.stringify(join(lock, 'pid'))}, String(process.pid));
      setTimeout(() => fs.rmSync(${JSON.stringify(lock)}, { recursive: true }), 3000);`], { stdio: 'inherit' });
    const exited = new Promise((r) => holder.once('exit', r));
    while (!existsSync(join(lock, 'pid'))) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    const ran = await withLock(lock, () => existsSync(lock));
    await exited;
    expect(ran).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose holder died', async () => {
    const lock = lockIn();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(dead.pid));
    expect(await withLock(lock, () => 'ran')).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });
});
