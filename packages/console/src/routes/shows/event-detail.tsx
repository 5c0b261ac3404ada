import { Link, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import type { TicketedEvent } from '../../api/types';
import { formatDateTime, localToIso } from '../../format';
import { useCan } from '../../shell';
import { Badge, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { Attendees } from './attendees';
import { Coupons, Slots } from './slots-coupons';
import { TicketTypes } from './ticket-types';

const toLocal = (iso: string) => {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The event's name and times, editable while it is not cancelled. */
function EditEvent({ event, onSaved }: { event: TicketedEvent; onSaved: () => void }) {
  const update = tsr.organizerEvents.update.useMutation();
  const [form, setForm] = useState({ name: event.name, starts: toLocal(event.starts_at), ends: toLocal(event.ends_at) });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await update.mutateAsync({ params: { event: event.id }, body: { name: form.name, starts_at: localToIso(form.starts), ends_at: localToIso(form.ends) } });
    onSaved();
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="Edit event">
      <Field label="Name">
        <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </Field>
      <Field label="Starts">
        <input type="datetime-local" required value={form.starts} onChange={(e) => setForm({ ...form, starts: e.target.value })} />
      </Field>
      <Field label="Ends">
        <input type="datetime-local" required value={form.ends} onChange={(e) => setForm({ ...form, ends: e.target.value })} />
      </Field>
      <button type="submit" disabled={update.isPending}>
        Save
      </button>
      <ErrorNote error={update.error} />
    </form>
  );
}

export function EventDetailPage() {
  const { event: id } = useParams({ strict: false }) as { event: string };
  const canWrite = useCan('events:write');
  const queries = useQueryClient();
  const retrieve = tsr.organizerEvents.retrieve.useQuery({ queryKey: ['event', id], queryData: { params: { event: id } } });
  const publish = tsr.organizerEvents.publish.useMutation();
  const cancel = tsr.ticketingPayments.eventCancel.cancel.useMutation();
  const event = (retrieve.data?.body as { data: TicketedEvent } | undefined)?.data;
  const reload = () => queries.invalidateQueries({ queryKey: ['event', id] }).then(() => queries.invalidateQueries({ queryKey: ['events'] }));

  if (retrieve.isPending) return <Loading what="Loading the event" />;
  if (!event) return <ErrorNote error={retrieve.error} />;
  const doPublish = async () => {
    await publish.mutateAsync({ params: { event: event.id } } as never);
    await reload();
  };
  const doCancel = async () => {
    if (!confirm(`Cancel ${event.name}? Every paid order is refunded and every ticket voided.`)) return;
    await cancel.mutateAsync({ params: { event: event.id }, body: {} });
    await reload();
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/shows/events">Events</Link> ›
      </p>
      <PageHeader title={event.name}>
        <Badge tone={toneOf(event.status)}>{event.status}</Badge>
        {canWrite && event.status === 'draft' && (
          <button type="button" onClick={() => void doPublish().catch(() => undefined)} disabled={publish.isPending}>
            Publish
          </button>
        )}
        {canWrite && event.status !== 'cancelled' && (
          <button type="button" className="danger" onClick={() => void doCancel().catch(() => undefined)} disabled={cancel.isPending}>
            Cancel event
          </button>
        )}
      </PageHeader>
      <ErrorNote error={publish.error ?? cancel.error} />
      <dl className="facts">
        <dt>Starts</dt>
        <dd>{formatDateTime(event.starts_at)}</dd>
        <dt>Ends</dt>
        <dd>{formatDateTime(event.ends_at)}</dd>
        <dt>Public page</dt>
        <dd>
          <code>/v1/events/{event.slug}</code>
        </dd>
      </dl>
      {canWrite && event.status !== 'cancelled' && <EditEvent key={event.updated_at} event={event} onSaved={() => void reload()} />}
      <TicketTypes event={event} />
      <Slots event={event} />
      <Coupons event={event} />
      <Attendees event={event} />
      <p>
        <Link to="/money/payments" search={{ event: event.id }}>
          Payments for this event
        </Link>{' '}
        ·{' '}
        <Link to="/door" search={{ event: event.id }}>
          Scan at the door
        </Link>
      </p>
    </>
  );
}
