import { describe, expect, it } from 'vitest';
import { aloneOnDeadlock, aloneOnFailure, Batcher, runByGroup } from './batcher';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('Batcher', () => {
  it('sends a lone call at once, and calls made while a flush runs together in the next', async () => {
    const flushes: number[][] = [];
    let release: () => void = () => {};
    const b = new Batcher<number, number>(
      async (items) => {
        flushes.push(items);
        if (flushes.length === 1) await new Promise<void>((r) => (release = r));
        return items.map((i) => i * 10);
      },
      { maxConcurrent: 1 },
    );
    const first = b.add(1);
    await new Promise((r) => setImmediate(r));
    const rest = [b.add(2), b.add(3), b.add(4)];
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(flushes).toEqual([[1], [2, 3, 4]]);
  });

  it('answers each caller with its own result, and rejects every caller of a failed flush', async () => {
    const b = new Batcher<string, string>(async (items) => {
      if (items.includes('bad')) throw new Error('flush failed');
      return items.map((i) => i.toUpperCase());
    });
    const calls = [b.add('a'), b.add('bad'), b.add('c')];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await b.add('d')).toBe('D');
  });

  it('takes at most maxItems per flush', async () => {
    const sizes: number[] = [];
    const b = new Batcher<number, number>(async (items) => (sizes.push(items.length), items), { maxItems: 2, maxConcurrent: 1 });
    await Promise.all([1, 2, 3, 4, 5].map((i) => b.add(i)));
    expect(sizes).toEqual([2, 2, 1]);
  });
});

describe('aloneOnDeadlock', () => {
  it('writes the items of a batch PostgreSQL aborted one at a time', async () => {
    const calls: number[][] = [];
    const flush = aloneOnDeadlock(async (items: number[]) => {
      calls.push(items);
      if (items.length > 1) throw deadlock();
      return items.map((i) => i + 1);
    });
    expect(await flush([1, 2, 3])).toEqual([2, 3, 4]);
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('passes any other failure on', async () => {
    const flush = aloneOnDeadlock(async (_items: number[]): Promise<number[]> => {
      throw new Error('connection lost');
    });
    await expect(flush([1, 2])).rejects.toThrow('connection lost');
  });
});

describe('aloneOnFailure', () => {
  it('runs the items of a failed batch one at a time, and fails only the caller whose item fails alone', async () => {
    const calls: string[][] = [];
    const b = new Batcher<string, string>(
      aloneOnFailure(async (items: string[]) => {
        calls.push(items);
        if (items.includes('bad')) throw new Error(`refused ${items.join(',')}`);
        return items.map((i) => i.toUpperCase());
      }),
    );
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((i) => b.add(i)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('refused bad') },
      { status: 'fulfilled', value: 'C' },
    ]);
    expect(calls).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });
});

describe('runByGroup', () => {
  it('runs each group apart, one after the other, and answers every item in the items\' order', async () => {
    const runs: string[][] = [];
    let running = 0;
    const answers = await runByGroup(
      ['a1', 'b1', 'a2', 'c1', 'b2'],
      (item) => item[0]!,
      async (group) => {
        running += 1;
        expect(running).toBe(1);
        await new Promise((r) => setTimeout(r, 1));
        running -= 1;
        runs.push(group);
        return group.map((item) => item.toUpperCase());
      },
      () => 'failed',
    );
    expect(runs).toEqual([['a1', 'a2'], ['b1', 'b2'], ['c1']]);
    expect(answers).toEqual(['A1', 'B1', 'A2', 'C1', 'B2']);
  });

  it('answers a failed group\'s items what onFailure says, once per group, and runs the other groups', async () => {
    const failures: string[][] = [];
    const answers = await runByGroup(
      ['a1', 'b1', 'a2'],
      (item) => item[0]!,
      async (group) => {
        if (group[0] === 'a1') throw new Error('boom');
        return group.map((item) => item.toUpperCase());
      },
      (err, group) => (failures.push(group), `alone after ${(err as Error).message}`),
    );
    expect(answers).toEqual(['alone after boom', 'B1', 'alone after boom']);
    expect(failures).toEqual([['a1', 'a2']]);
  });
});
