/** The page-numbered list shape the spec gives for the approvals queue: `data`, `links` and `meta`. */
export interface PageLinks<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: Array<{ url: string | null; label: string; active: boolean }>;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

/** Around the current page, so a long queue gives a short row of page links (gaps are `...` with no URL). */
const WINDOW = 2;

/**
 * Builds the shape from one page of rows. `urlOf(n)` is the address of page n (it keeps the list's filters).
 * `from`/`to` number the page's first and last row in the whole list; both are `null` on an empty page.
 */
export function pageLinks<T>(data: T[], o: { page: number; perPage: number; total: number; path: string; urlOf: (page: number) => string }): PageLinks<T> {
  const lastPage = Math.max(1, Math.ceil(o.total / o.perPage));
  const from = data.length > 0 ? (o.page - 1) * o.perPage + 1 : null;
  const prev = o.page > 1 ? o.urlOf(Math.min(o.page - 1, lastPage)) : null;
  const next = o.page < lastPage ? o.urlOf(o.page + 1) : null;
  const numbers: Array<number | null> = [];
  for (let n = 1; n <= lastPage; n++) {
    const near = Math.abs(n - o.page) <= WINDOW || n <= 2 || n > lastPage - 2;
    if (near) numbers.push(n);
    else if (numbers.at(-1) !== null) numbers.push(null);
  }
  return {
    data,
    links: { first: o.urlOf(1), last: o.urlOf(lastPage), prev, next },
    meta: {
      current_page: o.page,
      from,
      last_page: lastPage,
      links: [
        { url: prev, label: '&laquo; Previous', active: false },
        ...numbers.map((n) => (n === null ? { url: null, label: '...', active: false } : { url: o.urlOf(n), label: String(n), active: n === o.page })),
        { url: next, label: 'Next &raquo;', active: false },
      ],
      path: o.path,
      per_page: o.perPage,
      to: from === null ? null : from + data.length - 1,
      total: o.total,
    },
  };
}
