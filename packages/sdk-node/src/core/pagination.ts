import type { RawRequest, RequestOptions, Transport } from './request';

interface CursorMeta {
  pagination: { limit: number; has_more: boolean; next_cursor: string | null; prev_cursor: string | null };
}
interface NumberedMeta {
  pagination: { current_page: number; total_pages: number; per_page: number; total: number };
}
export interface ListBody<T> {
  data: T[];
  meta?: CursorMeta | NumberedMeta;
}

const isCursor = (meta: ListBody<unknown>['meta']): meta is CursorMeta => !!meta && 'has_more' in meta.pagination;

/**
 * One page of a list, and the way to the others. Iterating it (`for await`) walks every following page
 * with the same `limit` and filters; `backward()` walks towards newer objects instead.
 */
export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly meta: ListBody<T>['meta'];

  constructor(
    private readonly transport: Transport,
    private readonly request: RawRequest,
    private readonly options: RequestOptions,
    body: ListBody<T>,
  ) {
    this.data = body.data;
    this.meta = body.meta;
  }

  get hasMore(): boolean {
    const m = this.meta;
    if (!m) return false;
    return isCursor(m) ? m.pagination.has_more : m.pagination.current_page < m.pagination.total_pages;
  }

  private withQuery(changes: Record<string, unknown>): RawRequest {
    const query = { ...this.request.query };
    for (const k of ['cursor', 'starting_after', 'ending_before', 'page']) delete query[k];
    return { ...this.request, query: { ...query, ...changes } };
  }

  private async fetch(request: RawRequest): Promise<Page<T>> {
    return new Page(this.transport, request, this.options, await this.transport.request<ListBody<T>>(request, this.options));
  }

  /** The page after this one (older objects), or `null`. */
  async nextPage(): Promise<Page<T> | null> {
    const m = this.meta;
    if (!m) return null;
    if (isCursor(m)) return m.pagination.next_cursor ? this.fetch(this.withQuery({ cursor: m.pagination.next_cursor })) : null;
    return this.hasMore ? this.fetch(this.withQuery({ page: m.pagination.current_page + 1 })) : null;
  }

  /** The page before this one (newer objects), or `null`. */
  async previousPage(): Promise<Page<T> | null> {
    const m = this.meta;
    if (!m) return null;
    if (isCursor(m)) return m.pagination.prev_cursor ? this.fetch(this.withQuery({ cursor: m.pagination.prev_cursor })) : null;
    return m.pagination.current_page > 1 ? this.fetch(this.withQuery({ page: m.pagination.current_page - 1 })) : null;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page: Page<T> | null = this;
    while (page) {
      yield* page.data;
      page = await page.nextPage();
    }
  }

  /** Objects newer than this page's first, nearest first: this page (oldest to newest), then the previous pages. */
  async *backward(): AsyncIterable<T> {
    let page: Page<T> | null = this;
    while (page) {
      yield* [...page.data].reverse();
      page = await page.previousPage();
    }
  }
}

/** What a list method returns: await it for the first page, or `for await` it for every object. */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private promise: Promise<Page<T>> | undefined;

  constructor(private readonly load: () => Promise<Page<T>>) {}

  private page(): Promise<Page<T>> {
    return (this.promise ??= this.load());
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((value: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.page().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.page().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.page().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.page();
  }

  /** Every object newer than the first page's, walking `prev_cursor` (use with `ending_before`). */
  async *backward(): AsyncIterable<T> {
    yield* (await this.page()).backward();
  }
}
