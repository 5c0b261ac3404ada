import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import type { Payment, Refund } from '../../api/types';
import { amountText, formatDateTime, formatMoney, parseMoney } from '../../format';
import { heldForReview, REASON_TEXT, waitingFor, type HeldPayment } from '../../money/review';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf, type Column } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, Field, PageHeader, toneOf } from '../../ui/ui';

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
      <ErrorNote error={invalid ?? refund.error} />
    </form>
  );
}

const NEXT_STEP: Record<string, string> = { confirm_on_phone: 'Payer confirms on their phone', redirect: "Payer is on the provider's page" };

const pendingColumns = (now: Date): Column<Payment>[] => [
  { header: 'Payment', cell: (p) => <code>{p.id}</code> },
  { header: 'Order', cell: (p) => <code>{p.order}</code> },
  { header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency) },
  {
    header: 'Method',
    cell: (p) => (
      <>
        {p.method}
        {p.payer_hint && <span className="muted"> ••{p.payer_hint}</span>} <span className="muted">({p.provider ?? '—'})</span>
      </>
    ),
  },
  { header: 'Waiting', cell: (p) => waitingFor(p.created_at, now) },
  { header: 'Next step', cell: (p) => NEXT_STEP[p.next_action?.type ?? ''] ?? 'Asked of the provider on schedule' },
];

const refundColumns: Column<Refund>[] = [
  { header: 'Refund', cell: (r) => <code>{r.id}</code> },
  { header: 'Payment', cell: (r) => (r.payment ? <code>{r.payment}</code> : '—') },
  { header: 'Amount', cell: (r) => formatMoney(r.amount, r.currency) },
  {
    header: 'Status',
    cell: (r) => (
      <>
        <Badge tone={toneOf(r.status)}>{r.status}</Badge>
        {r.failure_code && <span className="muted"> {r.failure_message ?? r.failure_code}</span>}
      </>
    ),
  },
  { header: 'Reason', cell: (r) => r.reason ?? '—' },
  { header: 'Created', cell: (r) => formatDateTime(r.created_at) },
];

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

  const held = heldForReview(rowsOf<Payment>(late), rowsOf<Payment>(mismatched));
  const refunds = [...rowsOf<Refund>(failedRefunds), ...rowsOf<Refund>(pendingRefunds)].sort((a, b) => b.created_at.localeCompare(a.created_at));
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
      <ErrorNote error={pendingRefunds.error ?? failedRefunds.error} />
      <h2>Pending attempts</h2>
      <List<Payment>
        caption="Payment attempts waiting for an answer, newest first"
        query={pending}
        rows={rowsOf<Payment>(pending)}
        rowKey={(p) => p.id}
        loading="Loading pending attempts"
        empty={
          <EmptyState title="No attempts waiting">
            <p>Every payment started has an answer from its payer or provider.</p>
          </EmptyState>
        }
        columns={pendingColumns(new Date())}
      />

      <h2>Held for review</h2>
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <List<HeldPayment>
        caption="Payments held for review, newest first"
        query={{ isPending: late.isPending || mismatched.isPending, error: late.error ?? mismatched.error }}
        rows={held}
        rowKey={(h) => h.payment.id}
        loading="Loading payments held for review"
        empty={
          <EmptyState title="Nothing held for review">
            <p>Late payments and payments confirmed for another amount show here, to refund or keep.</p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Payment',
            cell: (h) => (
              <>
                <code>{h.payment.id}</code>
                <br />
                <span className="muted">order</span> <code>{h.payment.order}</code>
              </>
            ),
          },
          {
            header: 'Why',
            cell: (h) => (
              <>
                {h.reasons.map((r) => (
                  <div key={r}>{REASON_TEXT[r]}</div>
                ))}
                {h.payment.failure_message && <div className="muted">{h.payment.failure_message}</div>}
              </>
            ),
          },
          { header: 'Amount', cell: (h) => formatMoney(h.payment.amount, h.payment.currency) },
          { header: 'Status', cell: (h) => <Badge tone={toneOf(h.payment.status)}>{h.payment.status}</Badge> },
          { header: 'Refunded', cell: (h) => (h.payment.amount_refunded ? formatMoney(h.payment.amount_refunded, h.payment.currency) : '—') },
          { header: 'Created', cell: (h) => formatDateTime(h.payment.created_at) },
          canRefund && {
            header: 'Actions',
            cell: (h) =>
              h.refundable > 0 && (
                <button type="button" className="danger" onClick={() => (setDone(null), setRefunding(h.payment.id))}>
                  Refund<span className="sr-only"> {h.payment.id}</span>
                </button>
              ),
          },
        ]}
      />
      {opened && <RefundForm key={opened.payment.id} held={opened} onDone={() => void refunded(opened.payment.id)} onCancel={() => setRefunding(null)} />}

      <h2>Refunds pending or failed</h2>
      <List<Refund>
        caption="Refunds pending or failed, newest first"
        query={{ isPending: pendingRefunds.isPending || failedRefunds.isPending, error: null }}
        rows={refunds}
        rowKey={(r) => r.id}
        loading="Loading refunds"
        empty={
          <EmptyState title="No refunds waiting or failed">
            <p>A refund a provider has not settled yet, or one it refused, shows here.</p>
          </EmptyState>
        }
        columns={refundColumns}
      />
    </>
  );
}
