import type { Payout, Promoter } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useEnvironment } from '../../shell';
import { List, rowsOf, usePages, type Column } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, Field, PageHeader, toneOf } from '../../ui/ui';

type Filters = { promoter?: string; status?: string; method?: string };

export const payoutColumns: Column<Payout>[] = [
  { header: 'Payout', cell: (p) => <code>{p.id}</code> },
  { header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency) },
  { header: 'Method', cell: (p) => (p.method === 'manual' ? 'Paid elsewhere' : `M-Pesa ${p.phone_hint ?? ''}`) },
  {
    header: 'Status',
    cell: (p) => (
      <>
        <Badge tone={toneOf(p.status === 'paid' ? 'paid' : p.status)}>{p.status}</Badge>
        {p.failure_message && <div className="muted">{p.failure_message}</div>}
      </>
    ),
  },
  { header: 'Reference', cell: (p) => p.reference ?? '—' },
  { header: 'Created', cell: (p) => formatDateTime(p.created_at), wide: true },
];

/** Pays out the promoter's approved balance: recorded as paid elsewhere, or sent by M-Pesa to their phone. */
export function PayoutForm({ promoter, onDone }: { promoter: Promoter; onDone: () => void }) {
  const [form, setForm] = useState({ method: 'manual' as Payout['method'], reference: '', phone: promoter.phone ?? '' });
  const create = tsr.commissions.createPayout.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.method === 'manual' ? { method: form.method, reference: form.reference.trim() } : { method: form.method, ...(form.phone.trim() ? { phone: form.phone.trim() } : {}) };
    await create.mutateAsync({ params: { id: promoter.id }, body });
    onDone();
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New payout">
      <Field label="Pay by">
        <select value={form.method} onChange={(e) => setForm({ ...form, method: e.target.value as Payout['method'] })}>
          <option value="manual">Paid elsewhere (a reference)</option>
          <option value="mpesa_b2c">M-Pesa to the promoter's phone</option>
        </select>
      </Field>
      {form.method === 'manual' ? (
        <Field label="Reference" hint="Where the money went: a bank or M-Pesa reference.">
          <input required maxLength={100} value={form.reference} onChange={(e) => setForm({ ...form, reference: e.target.value })} />
        </Field>
      ) : (
        <Field label="Phone" hint="+254 only; empty: the promoter's phone.">
          <input type="tel" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
        </Field>
      )}
      <button type="submit" disabled={create.isPending}>
        Pay out approved balance
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

/** Payouts to promoters by promoter, status and method (in the URL), page by page. */
export function PayoutsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const pages = usePages(JSON.stringify(search));
  const list = tsr.commissions.listPayouts.useQuery({
    queryKey: ['payouts', environment, search, pages.query],
    queryData: { query: { limit: 50, ...withoutEmpty(search), ...pages.query } as never },
  });
  const promoters = rowsOf<Promoter>(tsr.promoters.list.useQuery({ queryKey: ['promoters', environment, 'all'], queryData: { query: { limit: 100 } as never } }));
  const name = (id: string) => promoters.find((p) => p.id === id)?.name ?? id;
  return (
    <>
      <PageHeader title="Payouts" />
      <List<Payout>
        caption="Payouts, newest first"
        query={list}
        rows={rowsOf<Payout>(list)}
        rowKey={(p) => p.id}
        pages={pages}
        loading="Loading payouts"
        filters={{
          fields: [
            { key: 'promoter', label: 'Promoter', options: promoters.map((p) => ({ value: p.id, label: p.name })) },
            { key: 'status', label: 'Status', options: ['pending', 'paid', 'failed'] },
            { key: 'method', label: 'Method', options: ['manual', 'mpesa_b2c'] },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/promoters/payouts', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No payouts here">
            <p>
              Pay a promoter's approved commission from their page in <Link to="/promoters/promoters">Promoters</Link>.
            </p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Promoter',
            cell: (p) => (
              <Link to="/promoters/promoters/$promoter" params={{ promoter: p.promoter }}>
                {name(p.promoter)}
              </Link>
            ),
          },
          ...payoutColumns,
        ]}
      />
    </>
  );
}
