import type { Database } from '../db/database';
import { InFlight } from './in-flight';
import { JsonBytes } from './json-bytes';
import type { Scope } from './scope';

/** What the kept pages of one list may hold at most, in bytes, across tenants. */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

interface Kept {
  version: number;
  page: JsonBytes;
}

/**
 * Pages of one list kept as their bytes, each with the version of the list it was read at. A trigger of the list's
 * tables counts a version for each tenant and environment in `list_versions` when a transaction that changed them
 * commits (migration `2026_11_28_10_list_versions`), whatever wrote it: this API, another process, or SQL. Every
 * read asks PostgreSQL for that version, so a page is answered from memory only while nothing it shows can have
 * changed: a page never outlives a write, in this process or any other.
 *
 * The version is read before the page: a page read after a write it may show, while the version read is still the
 * one before it, is only kept under that older version, which the next read no longer matches. Reads that found the
 * same version share one load: each read's version was current when it asked, so the load, started after the first
 * of them asked, shows every change counted in it.
 */
export class VersionedPages {
  private readonly kept = new Map<string, Kept>();
  private readonly loading = new InFlight<JsonBytes>();
  private bytes = 0;

  constructor(
    private readonly db: Database,
    /** The list's name in `list_versions`, as its tables' triggers write it. */
    private readonly list: string,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  /** The page `query` names, from memory if the list has not changed since it was read, else by `load`. */
  async read(scope: Scope, query: unknown, load: () => Promise<unknown>): Promise<JsonBytes> {
    const version = await this.version(scope);
    const key = `${scope.tenantId}:${scope.livemode}:${JSON.stringify(query)}`;
    const kept = this.kept.get(key);
    if (kept && kept.version === version) return kept.page;
    // Reads of one page at one version share its load: after a change, a dashboard's many readers ask again at once.
    return this.loading.run(`${version}:${key}`, async () => {
      const page = new JsonBytes(await load());
      this.keep(key, { version, page });
      return page;
    });
  }

  private async version(scope: Scope): Promise<number> {
    const row = await this.db
      .selectFrom('list_versions')
      .select('version')
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .where('list', '=', this.list)
      .executeTakeFirst();
    return row ? Number(row.version) : 0;
  }

  private keep(key: string, entry: Kept): void {
    const before = this.kept.get(key);
    // A slower read of an older version does not replace a newer page.
    if (before && before.version > entry.version) return;
    if (before) this.drop(key, before);
    const size = entry.page.bytes.length;
    if (size > this.maxBytes) return;
    // The oldest kept first: a map iterates in the order of insertion.
    for (const [oldest, kept] of this.kept) {
      if (this.bytes + size <= this.maxBytes) break;
      this.drop(oldest, kept);
    }
    this.kept.set(key, entry);
    this.bytes += size;
  }

  private drop(key: string, kept: Kept): void {
    this.kept.delete(key);
    this.bytes -= kept.page.bytes.length;
  }
}
