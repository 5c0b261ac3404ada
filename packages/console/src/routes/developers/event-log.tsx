import { useNavigate, useSearch } from '@tanstack/react-router';
import type { EventEnvelope } from '@svc/contract';
import { tsr } from '../../api/client';
import { formatDateTime } from '../../format';
import { withoutEmpty } from '../../search';
import { useEnvironment } from '../../shell';
import { EmptyState, ErrorNote, Field, Loading, PageHeader } from '../../ui/ui';
import { FilterForm } from '../../ui/list';

type Filters = { type?: string };

/** The events of this environment with their payloads, as webhook endpoints receive them; filtered by type. */
export function EventLogPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const list = tsr.eventLog.list.useQuery({
    queryKey: ['event_log', environment, search.type],
    queryData: { query: { limit: 50, ...withoutEmpty(search) } as never },
  });
  const events = ((list.data?.body as { data: EventEnvelope[] } | undefined)?.data ?? []) as EventEnvelope[];
  return (
    <>
      <PageHeader title="Event log" />
      <FilterForm<Filters> initial={search} apply={(v) => void navigate({ to: '/developers/events', search: withoutEmpty(v) })}>
        {(v, set) => (
          <Field label="Event type" hint="A type, or a wildcard such as events.*">
            <input value={v.type ?? ''} onChange={(e) => set('type', e.target.value)} placeholder="events.order.paid" />
          </Field>
        )}
      </FilterForm>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="Loading events" />
      ) : events.length === 0 ? (
        <EmptyState title="No events yet">
          <p>Every change in this environment (an order paid, a stream live) is recorded here and sent to your webhook endpoints.</p>
        </EmptyState>
      ) : (
        <ul className="event-list">
          {events.map((e) => (
            <li key={e.id}>
              <details>
                <summary>
                  <code>{e.type}</code> <span className="muted">{e.id}</span> · {formatDateTime(e.created_at)}
                </summary>
                <pre>{JSON.stringify(e, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
