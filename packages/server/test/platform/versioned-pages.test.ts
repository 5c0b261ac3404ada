import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { VersionedPages } from '../../src/core/versioned-pages';
import { useTestServer } from '../harness';

const t = useTestServer();
const scope = (tenantId: string) => ({ tenantId, livemode: false });

/** Counts the tenant's list one version on, as the tables' triggers do when a transaction commits. */
const bump = (tenantId: string) =>
  sql`insert into list_versions as v (tenant_id, livemode, list, version, xact) values (${tenantId}, false, 'things', 1, '1')
      on conflict (tenant_id, livemode, list) do update set version = v.version + 1`.execute(t.ctx.db);

function counted(value: (n: number) => unknown = (n) => ({ n })) {
  let loads = 0;
  return { load: async () => value(++loads), loads: () => loads };
}

describe('VersionedPages', () => {
  it('loads a page once for each version of its list', async () => {
    const pages = new VersionedPages(t.ctx.db, 'things');
    const page = counted();
    expect(JSON.parse((await pages.read(scope('ten_a'), ['p'], page.load)).bytes.toString())).toEqual({ n: 1 });
    await pages.read(scope('ten_a'), ['p'], page.load);
    expect(page.loads()).toBe(1);
    await bump('ten_a');
    expect(JSON.parse((await pages.read(scope('ten_a'), ['p'], page.load)).bytes.toString())).toEqual({ n: 2 });
    await pages.read(scope('ten_a'), ['p'], page.load);
    expect(page.loads()).toBe(2);
    // Another tenant's change is not this list's.
    await bump('ten_b');
    await pages.read(scope('ten_a'), ['p'], page.load);
    expect(page.loads()).toBe(2);
  });

  it('loads a page once for the reads that ask for it at the same version together', async () => {
    const pages = new VersionedPages(t.ctx.db, 'things');
    const page = counted();
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return page.load();
    };
    const read = await Promise.all(Array.from({ length: 5 }, () => pages.read(scope('ten_e'), ['p'], slow)));
    expect(page.loads()).toBe(1);
    expect(new Set(read).size).toBe(1);
    await bump('ten_e');
    await Promise.all(Array.from({ length: 5 }, () => pages.read(scope('ten_e'), ['p'], slow)));
    expect(page.loads()).toBe(2);
  });

  it('does not let a slower read of an older version replace the page of a newer one', async () => {
    const pages = new VersionedPages(t.ctx.db, 'things');
    let release!: () => void;
    const slow = pages.read(scope('ten_c'), ['p'], () => new Promise((resolve) => (release = () => resolve({ read: 'old' }))));
    // The slow read has its version (none yet) once its load has started.
    await expect.poll(() => release !== undefined).toBe(true);
    await bump('ten_c');
    await pages.read(scope('ten_c'), ['p'], async () => ({ read: 'new' }));
    release();
    expect(JSON.parse((await slow).bytes.toString())).toEqual({ read: 'old' });
    const page = counted();
    expect(JSON.parse((await pages.read(scope('ten_c'), ['p'], page.load)).bytes.toString())).toEqual({ read: 'new' });
    expect(page.loads()).toBe(0);
  });

  it('keeps at most its bytes, the oldest page going first', async () => {
    // Each page is 43 bytes: two fit in 100, a third pushes out the first.
    const pages = new VersionedPages(t.ctx.db, 'things', 100);
    const body = (n: number) => ({ page: String(n).padStart(32, '0') });
    const loads = [counted(() => body(1)), counted(() => body(2)), counted(() => body(3))];
    for (const [i, page] of loads.entries()) await pages.read(scope('ten_d'), [i], page.load);
    await pages.read(scope('ten_d'), [2], loads[2]!.load);
    await pages.read(scope('ten_d'), [1], loads[1]!.load);
    await pages.read(scope('ten_d'), [0], loads[0]!.load);
    expect(loads.map((l) => l.loads())).toEqual([2, 1, 1]);
    // A page larger than all it may keep is answered, never kept.
    const big = counted(() => ({ page: 'x'.repeat(200) }));
    await pages.read(scope('ten_d'), ['big'], big.load);
    await pages.read(scope('ten_d'), ['big'], big.load);
    expect(big.loads()).toBe(2);
  });
});
