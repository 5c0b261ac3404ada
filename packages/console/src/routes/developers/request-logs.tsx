import { useNavigate, useSearch } from '@tanstack/react-router';
import type { RequestLog } from '@svc/contract';
import { tsr } from '../../api/client';
import { formatDateTime } from '../../format';
import { withoutEmpty } from '../../search';
import { useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { FilterForm } from '../../ui/list';

type Filters = { id?: string; status?: string; path?: string; method?: string };

function Row({ r }: { r: RequestLog }) {
  return (
    <tr>
      <td>
        <Badge tone={toneOf(r.status)}>{r.status}</Badge>
      </td>
      <td>
        <code>
          {r.method} {r.path}
        </code>
        {r.error && (
          <details>
            <summary>{r.error.code}</summary>
            <pre>{JSON.stringify(r.error, null, 2)}</pre>
          </details>
        )}
      </td>
      <td>
        <code>{r.id}</code>
      </td>
      <td>{r.api_key ?? (r.user ? 'Member' : '—')}</td>
      <td>{r.latency_ms} ms</td>
      <td>{formatDateTime(r.created_at)}</td>
    </tr>
  );
}

/** Every API request of this environment, searchable by request id and filtered by status and path. */
export function RequestLogsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const byId = tsr.requestLogs.retrieve.useQuery({
    queryKey: ['request_logs', environment, 'id', search.id],
    queryData: { params: { id: search.id ?? '' } },
    enabled: Boolean(search.id),
    retry: false,
  });
  const list = tsr.requestLogs.list.useQuery({
    queryKey: ['request_logs', environment, search.status, search.path, search.method],
    queryData: { query: { limit: 100, ...withoutEmpty({ status: search.status, path: search.path, method: search.method }) } as never },
    enabled: !search.id,
  });
  const rows: RequestLog[] = search.id
    ? byId.data
      ? [(byId.data.body as { data: RequestLog }).data]
      : []
    : ((list.data?.body as { data: RequestLog[] } | undefined)?.data ?? []);
  const pending = search.id ? byId.isPending : list.isPending;

  return (
    <>
      <PageHeader title="Request log" />
      <FilterForm<Filters> initial={search} apply={(v) => void navigate({ to: '/developers/requests', search: withoutEmpty(v) })}>
        {(v, set) => (
          <>
            <Field label="Request id">
              <input value={v.id ?? ''} onChange={(e) => set('id', e.target.value)} placeholder="req_…" />
            </Field>
            <Field label="Status">
              <select value={v.status ?? ''} onChange={(e) => set('status', e.target.value)}>
                <option value="">Any</option>
                <option value="errors">Errors (400 and up)</option>
                <option value="2xx">2xx</option>
                <option value="4xx">4xx</option>
                <option value="5xx">5xx</option>
              </select>
            </Field>
            <Field label="Path starts with">
              <input value={v.path ?? ''} onChange={(e) => set('path', e.target.value)} placeholder="/v1/orders" />
            </Field>
            <Field label="Method">
              <select value={v.method ?? ''} onChange={(e) => set('method', e.target.value)}>
                <option value="">Any</option>
                {['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
          </>
        )}
      </FilterForm>
      <ErrorNote error={search.id ? byId.error : list.error} />
      {pending ? (
        <Loading what="Loading requests" />
      ) : rows.length === 0 ? (
        <EmptyState title="No requests match">
          <p>Requests made with this environment's keys appear here within a second. Clear the filters, or make a call with a key.</p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">API requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Request</th>
              <th scope="col">Request id</th>
              <th scope="col">Key</th>
              <th scope="col">Latency</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <Row key={r.id} r={r} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
