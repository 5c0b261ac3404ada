import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import type { TicketedEvent, TicketType } from '../../api/types';
import { formatMoney, parseMoney } from '../../format';
import { useCan } from '../../shell';
import { EmptyState, ErrorNote, Field, Loading } from '../../ui/ui';

/** An event's ticket types, and a form for a new one (a fixed price; 0 is free). */
export function TicketTypes({ event }: { event: TicketedEvent }) {
  const canWrite = useCan('events:write');
  const queries = useQueryClient();
  const list = tsr.ticketTypes.list.useQuery({ queryKey: ['ticket_types', event.id], queryData: { params: { event: event.id } } });
  const create = tsr.ticketTypes.create.useMutation();
  const [form, setForm] = useState({ name: '', price: '', quantity: '' });
  const [invalid, setInvalid] = useState<string | null>(null);
  const types = (list.data?.body as { data: TicketType[] } | undefined)?.data ?? [];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const price = parseMoney(form.price || '0', event.currency);
    if (price === null) return setInvalid(`Enter the price in ${event.currency}, e.g. 1500 or 1500.50.`);
    setInvalid(null);
    await create.mutateAsync({
      params: { event: event.id },
      body: { name: form.name, pricing_mode: 'fixed', price, quantity: form.quantity ? Number(form.quantity) : null },
    });
    setForm({ name: '', price: '', quantity: '' });
    await queries.invalidateQueries({ queryKey: ['ticket_types', event.id] });
  };

  return (
    <section aria-labelledby="ticket-types">
      <h2 id="ticket-types">Ticket types</h2>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="Loading ticket types" />
      ) : types.length === 0 ? (
        <EmptyState title="No ticket types yet">
          <p>Add at least one before publishing: buyers choose among them.</p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Ticket types</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Price</th>
              <th scope="col">Quantity</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {types.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{t.price === null ? 'Name your price' : t.price === 0 ? 'Free' : formatMoney(t.price, event.currency)}</td>
                <td>{t.quantity ?? 'Unlimited'}</td>
                <td>{t.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && (
        <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New ticket type">
          <Field label="Ticket type name">
            <input name="ticket-name" required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </Field>
          <Field label={`Price (${event.currency})`}>
            <input name="ticket-price" inputMode="decimal" value={form.price} onChange={(e) => setForm({ ...form, price: e.target.value })} placeholder="0" />
          </Field>
          <Field label="Quantity">
            <input name="ticket-quantity" type="number" min={1} value={form.quantity} onChange={(e) => setForm({ ...form, quantity: e.target.value })} placeholder="Unlimited" />
          </Field>
          <button type="submit" disabled={create.isPending}>
            Add ticket type
          </button>
          {invalid && <p className="error" role="alert">{invalid}</p>}
          <ErrorNote error={create.error} />
        </form>
      )}
    </section>
  );
}
