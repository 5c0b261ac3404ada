import { describe, expect, it } from 'vitest';
import { roundsOf } from './scan-batches';

const scan = (secretHash: string, nonce?: string) => ({
  item: { secretHash, scan: { secret: secretHash, type: 'entry' as const, nonce }, at: new Date(0), checkinId: secretHash },
});
const hashesOf = (rounds: ReturnType<typeof roundsOf<ReturnType<typeof scan>>>) => rounds.map((r) => r.map((s) => `${s.item.secretHash}${s.item.scan.nonce ?? ''}`));

describe('roundsOf', () => {
  it('puts a ticket or a nonce seen before in the round after its last one, keeping the order of each', () => {
    expect(hashesOf(roundsOf([scan('a'), scan('b'), scan('a'), scan('c'), scan('a'), scan('b')]))).toEqual([['a', 'b', 'c'], ['a', 'b'], ['a']]);
    expect(hashesOf(roundsOf([scan('a', '1'), scan('b', '1'), scan('c', '2'), scan('b')]))).toEqual([['a1', 'c2'], ['b1'], ['b']]);
  });

  it('keeps scans without a nonce of distinct tickets in one round', () => {
    expect(roundsOf([scan('a'), scan('b'), scan('c')])).toHaveLength(1);
  });
});
