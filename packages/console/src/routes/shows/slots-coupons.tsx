import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CouponSchema, EventSlotSchema } from '@svc/contract';
import type { z } from 'zod';
import { tsr } from '../../api/client';
import type { TicketedEvent } from '../../api/types';
import { formatDateTime, localToIso } from '../../format';
import { useCan } from '../../shell';
import { ErrorNote, Field } from '../../ui/ui';

type Slot = z.infer<typeof EventSlotSchema>;
type Coupon = z.infer<typeof CouponSchema>;

/** Time slots: an event sold per session (a tour every hour); each slot has its own capacity. */
export function Slots({ event }: { event: TicketedEvent }) {
  const canWrite = useCan('events:write');
  const queries = useQueryClient();
  const list = tsr.eventSlots.list.useQuery({ queryKey: ['slots', event.id], queryData: { params: { event: event.id } } as never });
  const create = tsr.eventSlots.create.useMutation();
  const [form, setForm] = useState({ starts: '', ends: '', capacity: '' });
  const slots = ((list.data?.body as { data?: Slot[] } | undefined)?.data ?? []) as Slot[];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await create.mutateAsync({
      params: { event: event.id },
      body: { starts_at: localToIso(form.starts), ends_at: localToIso(form.ends), capacity: form.capacity ? Number(form.capacity) : null },
    });
    setForm({ starts: '', ends: '', capacity: '' });
    await queries.invalidateQueries({ queryKey: ['slots', event.id] });
  };
  return (
    <section aria-labelledby="slots">
      <h2 id="slots">Time slots</h2>
      {slots.length === 0 ? (
        <p className="muted">No slots: the event is one session.</p>
      ) : (
        <ul>
          {slots.map((s) => (
            <li key={s.id}>
              {formatDateTime(s.starts_at)} – {formatDateTime(s.ends_at)} · {s.capacity ?? 'unlimited'} seats
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New time slot">
          <Field label="Slot starts">
            <input type="datetime-local" required value={form.starts} onChange={(e) => setForm({ ...form, starts: e.target.value })} />
          </Field>
          <Field label="Slot ends">
            <input type="datetime-local" required value={form.ends} onChange={(e) => setForm({ ...form, ends: e.target.value })} />
          </Field>
          <Field label="Slot capacity">
            <input type="number" min={1} value={form.capacity} onChange={(e) => setForm({ ...form, capacity: e.target.value })} placeholder="Unlimited" />
          </Field>
          <button type="submit" disabled={create.isPending}>
            Add slot
          </button>
          <ErrorNote error={create.error ?? list.error} />
        </form>
      )}
    </section>
  );
}

/** Coupons: a code that takes a percentage off. */
export function Coupons({ event }: { event: TicketedEvent }) {
  const canWrite = useCan('events:write');
  const queries = useQueryClient();
  const list = tsr.coupons.list.useQuery({ queryKey: ['coupons', event.id], queryData: { params: { event: event.id } } as never });
  const create = tsr.coupons.create.useMutation();
  const update = tsr.coupons.update.useMutation();
  const [form, setForm] = useState({ code: '', percent: '10' });
  const coupons = ((list.data?.body as { data?: Coupon[] } | undefined)?.data ?? []) as Coupon[];
  const refresh = () => queries.invalidateQueries({ queryKey: ['coupons', event.id] });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await create.mutateAsync({ params: { event: event.id }, body: { code: form.code, discount_type: 'percent', value: Number(form.percent) } });
    setForm({ code: '', percent: '10' });
    await refresh();
  };
  const toggle = async (c: Coupon) => {
    await update.mutateAsync({ params: { event: event.id, id: c.id }, body: { active: !c.active } });
    await refresh();
  };
  return (
    <section aria-labelledby="coupons">
      <h2 id="coupons">Coupons</h2>
      {coupons.length === 0 ? (
        <p className="muted">No coupons.</p>
      ) : (
        <ul>
          {coupons.map((c) => (
            <li key={c.id}>
              <code>{c.code}</code> · {c.discount_type === 'percent' ? `${c.value}% off` : `${c.value} off`} · used {c.times_redeemed}×{' '}
              {canWrite && (
                <button type="button" className="link" onClick={() => void toggle(c).catch(() => undefined)}>
                  {c.active ? 'Deactivate' : 'Activate'}<span className="sr-only"> {c.code}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New coupon">
          <Field label="Coupon code">
            <input required pattern="[A-Za-z0-9_-]{1,40}" value={form.code} onChange={(e) => setForm({ ...form, code: e.target.value })} />
          </Field>
          <Field label="Percent off">
            <input type="number" min={1} max={100} required value={form.percent} onChange={(e) => setForm({ ...form, percent: e.target.value })} />
          </Field>
          <button type="submit" disabled={create.isPending}>
            Add coupon
          </button>
          <ErrorNote error={create.error ?? update.error ?? list.error} />
        </form>
      )}
    </section>
  );
}
