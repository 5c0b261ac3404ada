import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { tsr } from '../../api/client';
import { download } from '../../api/download';
import type { Attendee, TicketedEvent } from '../../api/types';
import { useCan } from '../../shell';
import { Badge, EmptyState, ErrorNote, Loading, toneOf } from '../../ui/ui';

/** An event's attendees: review (approve, reject), resend a ticket, export as CSV. */
export function Attendees({ event }: { event: TicketedEvent }) {
  const canWrite = useCan('events:write');
  const queries = useQueryClient();
  const key = ['attendees', event.id];
  const list = tsr.attendees.list.useQuery({ queryKey: key, queryData: { params: { event: event.id }, query: { limit: 100 } } as never });
  const approve = tsr.attendees.approve.useMutation();
  const reject = tsr.attendees.reject.useMutation();
  const resend = tsr.attendees.resend.useMutation();
  const [exportError, setExportError] = useState<unknown>(null);
  const attendees = (list.data?.body as { data: Attendee[] } | undefined)?.data ?? [];
  const act = async (run: () => Promise<unknown>) => {
    await run();
    await queries.invalidateQueries({ queryKey: key });
  };
  const params = (a: Attendee) => ({ params: { event: event.id, attendee: a.id } });

  return (
    <section aria-labelledby="attendees">
      <h2 id="attendees">Attendees</h2>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          onClick={() => void download(`/v1/organizer/events/${event.id}/attendees/export?format=csv`, `${event.slug}-attendees.csv`).catch(setExportError)}
        >
          Download CSV
        </button>
      </div>
      <ErrorNote error={list.error ?? approve.error ?? reject.error ?? resend.error ?? exportError} />
      {list.isPending ? (
        <Loading what="Loading attendees" />
      ) : attendees.length === 0 ? (
        <EmptyState title="No attendees yet">
          <p>Once the event is published, each ticket sold adds its holder here.</p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Attendees</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Contact</th>
              <th scope="col">Ticket</th>
              <th scope="col">Status</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {attendees.map((a) => (
              <tr key={a.id}>
                <td>{[a.first_name, a.last_name].filter(Boolean).join(' ') || '—'}</td>
                <td>{a.email ?? a.phone ?? '—'}</td>
                <td>
                  {a.ticket_type.name} · {a.order.code}
                </td>
                <td>
                  <Badge tone={toneOf(a.review_status ?? a.status)}>{a.review_status ?? a.status}</Badge>
                  {a.checked_in && <Badge tone="ok">inside</Badge>}
                </td>
                {canWrite && (
                  <td className="row-actions">
                    {a.review_status === 'pending' && (
                      <>
                        <button type="button" onClick={() => void act(() => approve.mutateAsync(params(a) as never)).catch(() => undefined)}>
                          Approve
                        </button>
                        <button type="button" className="danger" onClick={() => void act(() => reject.mutateAsync({ ...params(a), body: {} } as never)).catch(() => undefined)}>
                          Reject
                        </button>
                      </>
                    )}
                    <button type="button" className="secondary" onClick={() => void act(() => resend.mutateAsync(params(a) as never)).catch(() => undefined)}>
                      Resend ticket
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
