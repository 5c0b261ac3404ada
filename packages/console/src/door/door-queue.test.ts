import { describe, expect, it } from 'vitest';
import { DoorQueue, refusalText, secretOfCode, SYNC_BATCH, type QueuedScan } from './door-queue';

function memory() {
  const m = new Map<string, unknown>();
  return { get: async (k: string) => m.get(k), set: async (k: string, v: unknown) => void m.set(k, v) };
}
const scan = (n: number, event = 'ev-1'): QueuedScan => ({ nonce: `n${n}`, event, secret: `s${n}`, type: 'entry', scanned_at: '2026-12-02T10:00:00Z' });

describe('the door queue', () => {
  it('sends queued scans per event in batches the sync endpoint takes, and empties', async () => {
    const queue = new DoorQueue(memory());
    for (let i = 0; i < SYNC_BATCH + 2; i++) await queue.add(scan(i));
    await queue.add(scan(999, 'ev-2'));
    const calls: Array<[string, number]> = [];
    const results = await queue.sync(async (event, scans) => {
      calls.push([event, scans.length]);
      return scans.map((s) => (s.secret === 's1' ? { status: 'error' as const, reason: 'already_redeemed' } : { status: 'ok' as const, reason: null }));
    });
    expect(calls).toEqual([
      ['ev-1', SYNC_BATCH],
      ['ev-1', 2],
      ['ev-2', 1],
    ]);
    expect(results).toHaveLength(SYNC_BATCH + 3);
    expect(results.find((r) => r.scan.secret === 's1')).toMatchObject({ status: 'error', reason: 'already_redeemed' });
    expect(await queue.all()).toEqual([]);
  });

  it('keeps every scan when the sync call fails, and one added meanwhile', async () => {
    const queue = new DoorQueue(memory());
    await queue.add(scan(1));
    const failing = queue.sync(async () => {
      throw new TypeError('Failed to fetch');
    });
    const adding = queue.add(scan(2));
    await expect(failing).rejects.toThrow('Failed to fetch');
    expect(await adding).toBe(2);
    expect((await queue.all()).map((s) => s.nonce)).toEqual(['n1', 'n2']);
  });

  it('reads the secret from a bare code or a link, and words each refusal for the door', () => {
    expect(secretOfCode('  tks_abc  ')).toBe('tks_abc');
    expect(secretOfCode('https://tickets.example/t/tks_abc')).toBe('tks_abc');
    expect(secretOfCode('https://tickets.example/t?secret=tks_xyz')).toBe('tks_xyz');
    expect(refusalText('already_redeemed')).toMatch(/Already used/);
    expect(refusalText('some_new_reason')).toBe('some new reason');
    expect(refusalText(null)).toBe('Refused.');
  });
});
