import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import type { Payment, Refund } from '../../api/types';
import { amountText, formatDateTime, formatMoney, parseMoney } from '../../format';
import { heldForReview, REASON_TEXT, waitingFor, type HeldPayment } from '../../money/review';
import { useCan, useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';

const dataOf = <T,>(q: { data?: { body: unknown } }) => (q.data?.body as { data: T[] } | undefined)?.data ?? [];

/** Returns money of one held payment: all that is left by default, or less. */
function RefundForm({ held, onDone, onCancel }: { held: HeldPayment; onDone: () => void; onCancel: () => void }) {
  const p = held.payment;
  const refund = tsr.ticketingPayments.refunds.create.useMutation();
  const [amount, setAmount] = useState(amountText(held.refundable, p.currency));
  const [reason, setReason] = useState('Refunded after review');
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const minor = parseMoney(amount, p.currency);
    if (minor === null || minor < 1 || minor > held.refundable) {
      setInvalid(`Enter an amount up to ${formatMoney(held.refundable, p.currency)}.`);
      return;
    }
    setInvalid(null);
    await refund.mutateAsync({ params: { id: p.order }, body: { payment: p.id, amount: minor, reason } });
    onDone();
  };
  return (
    <form className="inline-form" aria-label={`Refund payment ${p.id}`} onSubmit={(e) => void submit(e).catch(() => undefined)}>
      <Field label={`Amount (${p.currency.toUpperCase()})`} hint={`At most ${formatMoney(held.refundable, p.currency)}`}>
        <input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" />
      </Field>
      <Field label="Reason">
        <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
      </Field>
      <button type="submit" className="danger" disabled={refund.isPending}>
        {refund.isPending ? 'Refunding…' : 'Issue refund'}
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
      {invalid && (
        <p className="error" role="alert">
          {invalid}
        </p>
      )}
      <ErrorNote error={refund.error} />
    </form>
  );
}

function PendingAttempts({ payments }: { payments: Payment[] }) {
  const now = new Date();
  if (payments.length === 0) return <EmptyState title="No attempts waiting">{<p>Every payment started has an answer from its payer or provider.</p>}</EmptyState>;
  return (
    <table>
      <caption className="sr-only">Payment attempts waiting for an answer, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Payment</th>
          <th scope="col">Order</th>
          <th scope="col">Amount</th>
          <th scope="col">Method</th>
          <th scope="col">Waiting</th>
          <th scope="col">Next step</th>
        </tr>
      </thead>
      <tbody>
        {payments.map((p) => (
          <tr key={p.id}>
            <td>
              <code>{p.id}</code>
            </td>
            <td>
              <code>{p.order}</code>
            </td>
            <td>{formatMoney(p.amount, p.currency)}</td>
            <td>
              {p.method}
              {p.payer_hint && <span className="muted"> ••{p.payer_hint}</span>} <span className="muted">({p.provider ?? '—'})</span>
            </td>
            <td>{waitingFor(p.created_at, now)}</td>
            <td>{p.next_action?.type === 'confirm_on_phone' ? 'Payer confirms on their phone' : p.next_action?.type === 'redirect' ? 'Payer is on the provider\'s page' : 'Asked of the provider on schedule'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Reconciliation: attempts still waiting for an answer, payments held for review (late, or another amount than
 * asked) with a refund issued from the row, and refunds that are pending or failed.
 */
export function ReconciliationPage() {
  const environment = useEnvironment();
  const canRefund = useCan('events:write');
  const queries = useQueryClient();
  const q = (key: string, query: Record<string, string | number>) => ({ queryKey: ['reconciliation', environment, key], queryData: { query: { limit: 100, ...query } as never } });
  const pending = tsr.payments.payments.list.useQuery(q('pending', { status: 'pending' }));
  const late = tsr.payments.payments.list.useQuery(q('late', { late: 'true' }));
  const mismatched = tsr.payments.payments.list.useQuery(q('mismatch', { failure_code: 'amount_mismatch' }));
  const pendingRefunds = tsr.payments.payments.listRefunds.useQuery(q('refunds-pending', { status: 'pending' }));
  const failedRefunds = tsr.payments.payments.listRefunds.useQuery(q('refunds-failed', { status: 'failed' }));
  const [refunding, setRefunding] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const held = heldForReview(dataOf<Payment>(late), dataOf<Payment>(mismatched));
  const refunds = [...dataOf<Refund>(failedRefunds), ...dataOf<Refund>(pendingRefunds)].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const loading = pending.isPending || late.isPending || mismatched.isPending;
  const refunded = async (id: string) => {
    setRefunding(null);
    setDone(`Refund issued for ${id}.`);
    await queries.invalidateQueries({ queryKey: ['reconciliation'] });
    await queries.invalidateQueries({ queryKey: ['orders'] });
  };
  const opened = held.find((h) => h.payment.id === refunding);

  return (
    <>
      <PageHeader title="Reconciliation" />
      <p className="muted">
        The service asks providers about waiting attempts on its own schedule and settles them; what it cannot settle by a rule waits
        here. <Link to="/money/payments">All payments</Link>
      </p>
      <ErrorNote error={pending.error ?? late.error ?? mismatched.error ?? pendingRefunds.error ?? failedRefunds.error} />
      {loading ? (
        <Loading what="Loading reconciliation" />
      ) : (
        <>
          <h2>Pending attempts</h2>
          <PendingAttempts payments={dataOf<Payment>(pending)} />

          <h2>Held for review</h2>
          {done && (
            <p className="notice" role="status">
              {done}
            </p>
          )}
          {held.length === 0 ? (
            <EmptyState title="Nothing held for review">
              <p>Late payments and payments confirmed for another amount show here, to refund or keep.</p>
            </EmptyState>
          ) : (
            <table>
              <caption className="sr-only">Payments held for review, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Payment</th>
                  <th scope="col">Why</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Status</th>
                  <th scope="col">Refunded</th>
                  <th scope="col">Created</th>
                  {canRefund && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {held.map((h) => (
                  <tr key={h.payment.id}>
                    <td>
                      <code>{h.payment.id}</code>
                      <br />
                      <span className="muted">order</span> <code>{h.payment.order}</code>
                    </td>
                    <td>
                      {h.reasons.map((r) => (
                        <div key={r}>{REASON_TEXT[r]}</div>
                      ))}
                      {h.payment.failure_message && <div className="muted">{h.payment.failure_message}</div>}
                    </td>
                    <td>{formatMoney(h.payment.amount, h.payment.currency)}</td>
                    <td>
                      <Badge tone={toneOf(h.payment.status)}>{h.payment.status}</Badge>
                    </td>
                    <td>{h.payment.amount_refunded ? formatMoney(h.payment.amount_refunded, h.payment.currency) : '—'}</td>
                    <td>{formatDateTime(h.payment.created_at)}</td>
                    {canRefund && (
                      <td>
                        {h.refundable > 0 && (
                          <button type="button" className="danger" onClick={() => (setDone(null), setRefunding(h.payment.id))}>
                            Refund<span className="sr-only"> {h.payment.id}</span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {opened && <RefundForm key={opened.payment.id} held={opened} onDone={() => void refunded(opened.payment.id)} onCancel={() => setRefunding(null)} />}

          <h2>Refunds pending or failed</h2>
          {refunds.length === 0 ? (
            <EmptyState title="No refunds waiting or failed">
              <p>A refund a provider has not settled yet, or one it refused, shows here.</p>
            </EmptyState>
          ) : (
            <table>
              <caption className="sr-only">Refunds pending or failed, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Refund</th>
                  <th scope="col">Payment</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Status</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {refunds.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <code>{r.id}</code>
                    </td>
                    <td>{r.payment ? <code>{r.payment}</code> : '—'}</td>
                    <td>{formatMoney(r.amount, r.currency)}</td>
                    <td>
                      <Badge tone={toneOf(r.status)}>{r.status}</Badge>
                      {r.failure_code && <span className="muted"> {r.failure_message ?? r.failure_code}</span>}
                    </td>
                    <td>{r.reason ?? '—'}</td>
                    <td>{formatDateTime(r.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}
