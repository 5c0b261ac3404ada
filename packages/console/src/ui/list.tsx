import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorNote, Field, Loading } from './ui';

/**
 * A list's filter form. The values it applies go into the URL (the caller's `apply`), so the back button
 * returns to the previous filters and a filtered list can be shared.
 */
export function FilterForm<T extends Record<string, string | undefined>>({
  initial,
  apply,
  children,
}: {
  initial: T;
  apply: (values: T) => void;
  children: (values: T, set: (key: keyof T, value: string) => void) => ReactNode;
}) {
  const [values, setValues] = useState<T>(initial);
  const set = (key: keyof T, value: string) => setValues((v) => ({ ...v, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(values);
  };
  return (
    <form className="filters" role="search" onSubmit={submit}>
      {children(values, set)}
      <button type="submit">Filter</button>
    </form>
  );
}

/** The rows of a list answer (`{data: [...]}`), or none while it loads or failed. */
export const rowsOf = <T,>(q: { data?: { body: unknown } }): T[] => (q.data?.body as { data?: T[] } | undefined)?.data ?? [];

/** Whether a cursor-paginated answer has a next page. */
export const hasMoreOf = (q: { data?: { body: unknown } }) =>
  Boolean((q.data?.body as { meta?: { pagination?: { has_more?: boolean } } } | undefined)?.meta?.pagination?.has_more);

/** A column of a list: its heading and its cell; `wide` columns are hidden at phone width. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  wide?: boolean;
}

/** A filter of the filter bar: a select of `options` (with "Any"), or a text box. */
export interface FilterField {
  key: string;
  label: string;
  options?: ReadonlyArray<string | { value: string; label: string }>;
  type?: 'text' | 'search' | 'date';
}

type Values = Record<string, string | undefined>;

/** The filter bar: declared fields, applied together (into the URL by the caller's `apply`). */
export function FilterBar({ fields, values, apply }: { fields: FilterField[]; values: Values; apply: (v: Values) => void }) {
  return (
    <FilterForm<Values> initial={values} apply={apply}>
      {(v, set) =>
        fields.map((f) => (
          <Field key={f.key} label={f.label}>
            {f.options ? (
              <select value={v[f.key] ?? ''} onChange={(e) => set(f.key, e.target.value)}>
                <option value="">Any</option>
                {f.options.map((o) =>
                  typeof o === 'string' ? (
                    <option key={o}>{o}</option>
                  ) : (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ),
                )}
              </select>
            ) : (
              <input type={f.type ?? 'text'} value={v[f.key] ?? ''} onChange={(e) => set(f.key, e.target.value)} />
            )}
          </Field>
        ))
      }
    </FilterForm>
  );
}

/**
 * Pages of a cursor list: the `starting_after` of the page shown, and the pages before it to go back to.
 * `reset` with the list's filters, so a new filter starts at the first page.
 */
export function usePages(reset: string) {
  const [state, setState] = useState<{ reset: string; stack: string[] }>({ reset, stack: [] });
  const stack = state.reset === reset ? state.stack : [];
  const after = stack.at(-1);
  return {
    query: after ? { starting_after: after } : {},
    page: stack.length + 1,
    next: (lastId: string) => setState({ reset, stack: [...stack, lastId] }),
    previous: () => setState({ reset, stack: stack.slice(0, -1) }),
  };
}
export type Pages = ReturnType<typeof usePages>;

export interface ListProps<T> {
  /** Read by screen readers: what the table lists, and in which order. */
  caption: string;
  columns: Array<Column<T> | false>;
  rows: T[];
  rowKey: (row: T) => string;
  /** The list's query: loading, failed, and (with `pages`) whether a next page exists. */
  query: { isPending: boolean; error: unknown; data?: { body: unknown } };
  loading: string;
  /** What an empty list says to do next (an `EmptyState`). */
  empty: ReactNode;
  filters?: { fields: FilterField[]; values: Values; apply: (v: Values) => void };
  pages?: Pages;
  /** A wide table scrolls sideways in its own region at phone width. */
  scroll?: boolean;
}

/** A list screen's body: its filter bar, its error, loading and empty states, the table and its pages. */
export function List<T>({ caption, columns, rows, rowKey, query, loading, empty, filters, pages, scroll }: ListProps<T>) {
  const shown = columns.filter((c): c is Column<T> => c !== false);
  const more = pages && hasMoreOf(query);
  const table = (
    <table>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {shown.map((c) => (
            <th key={c.header} scope="col" className={c.wide ? 'wide-only' : undefined}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)}>
            {shown.map((c) => (
              <td key={c.header} className={c.wide ? 'wide-only' : undefined}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <>
      {/* Keyed by the applied values: the back button's filters show in the bar too. */}
      {filters && <FilterBar key={JSON.stringify(filters.values)} {...filters} />}
      <ErrorNote error={query.error} />
      {query.isPending ? (
        <Loading what={loading} />
      ) : rows.length === 0 && !pages?.query.starting_after ? (
        empty
      ) : scroll ? (
        <div className="scroll" tabIndex={0} role="region" aria-label={`${caption}, scrolls sideways`}>
          {table}
        </div>
      ) : (
        table
      )}
      {pages && (more || pages.page > 1) && (
        <nav className="pages" aria-label={`Pages of ${caption}`}>
          <button type="button" className="secondary" disabled={pages.page === 1} onClick={pages.previous}>
            Previous page
          </button>
          <span>Page {pages.page}</span>
          <button type="button" className="secondary" disabled={!more || rows.length === 0} onClick={() => pages.next(rowKey(rows[rows.length - 1]!))}>
            Next page
          </button>
        </nav>
      )}
    </>
  );
}
