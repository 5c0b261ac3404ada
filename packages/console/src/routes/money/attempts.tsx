import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { PAYMENT_FAILURE_CODES } from '@svc/contract';
import { tsr } from '../../api/client';
import type { Payment, Refund } from '../../api/types';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { FilterForm } from '../../ui/list';

/** `late` in the URL as a person reads it (`yes`, `no`): the router would quote `true` to keep it a string. */
const LATE: Record<string, 'true' | 'false' | undefined> = { yes: 'true', no: 'false' };

/** What the table reads of a payment or a refund. */
type Row = Pick<Payment, 'id' | 'order' | 'amount' | 'currency' | 'failure_code' | 'created_at'> &
  Partial<Pick<Payment, 'late' | 'amount_refunded' | 'method' | 'payer_hint'>> & { status: string; reason?: string | null };

type Filters = { view?: string; status?: string; order?: string; method?: string; late?: string; failure_code?: string; source?: string };

const Select = ({ value, options, onChange }: { value?: string; options: readonly string[]; onChange: (v: string) => void }) => (
  <select value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
    <option value="">Any</option>
    {options.map((o) => (
      <option key={o}>{o}</option>
    ))}
  </select>
);

/** Every payment attempt or every refund, with the API's filters kept in the URL. */
export function AttemptsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const refunds = search.view === 'refunds';
  const { view: _view, ...filters } = search;
  const payments = tsr.payments.payments.list.useQuery({
    queryKey: ['attempts', environment, filters],
    queryData: { query: { limit: 100, ...withoutEmpty({ status: filters.status, order: filters.order, method: filters.method, late: LATE[filters.late ?? ''], failure_code: filters.failure_code }) } as never },
    enabled: !refunds,
  });
  const refundList = tsr.payments.payments.listRefunds.useQuery({
    queryKey: ['refunds', environment, filters],
    queryData: { query: { limit: 100, ...withoutEmpty({ status: filters.status, order: filters.order, source: filters.source }) } as never },
    enabled: refunds,
  });
  const query = refunds ? refundList : payments;
  const rows = ((query.data?.body as { data: Array<Payment | Refund> } | undefined)?.data ?? []) as Row[];
  const apply = (v: Filters) => void navigate({ to: '/money/attempts', search: withoutEmpty({ ...v, view: search.view }) });

  return (
    <>
      <PageHeader title={refunds ? 'Refunds' : 'Payment attempts'} />
      <nav className="tabs" aria-label="Payments or refunds">
        <Link to="/money/attempts" search={{}} aria-current={refunds ? undefined : 'page'}>
          Payment attempts
        </Link>
        <Link to="/money/attempts" search={{ view: 'refunds' }} aria-current={refunds ? 'page' : undefined}>
          Refunds
        </Link>
      </nav>
      <FilterForm<Filters> key={search.view ?? 'payments'} initial={filters} apply={apply}>
        {(v, set) => (
          <>
            <Field label="Status">
              <Select value={v.status} options={refunds ? ['pending', 'succeeded', 'failed'] : ['pending', 'succeeded', 'failed', 'cancelled']} onChange={(x) => set('status', x)} />
            </Field>
            {refunds ? (
              <Field label="Source">
                <Select value={v.source} options={['provider', 'manual', 'external']} onChange={(x) => set('source', x)} />
              </Field>
            ) : (
              <>
                <Field label="Method">
                  <Select value={v.method} options={['mobile_money', 'card', 'comp']} onChange={(x) => set('method', x)} />
                </Field>
                <Field label="Late">
                  <Select value={v.late} options={['yes', 'no']} onChange={(x) => set('late', x)} />
                </Field>
                <Field label="Failure">
                  <Select value={v.failure_code} options={PAYMENT_FAILURE_CODES} onChange={(x) => set('failure_code', x)} />
                </Field>
              </>
            )}
            <Field label="Order id">
              <input value={v.order ?? ''} onChange={(e) => set('order', e.target.value)} placeholder="ord_…" />
            </Field>
          </>
        )}
      </FilterForm>
      <ErrorNote error={query.error} />
      {query.isPending ? (
        <Loading what={refunds ? 'Loading refunds' : 'Loading payment attempts'} />
      ) : rows.length === 0 ? (
        <EmptyState title={refunds ? 'No refunds match' : 'No payment attempts match'}>
          <p>
            Clear the filters, or see <Link to="/money/reconciliation">reconciliation</Link> for what needs a decision.
          </p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">{refunds ? 'Refunds' : 'Payment attempts'}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">{refunds ? 'Refund' : 'Payment'}</th>
              <th scope="col">Order</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">{refunds ? 'Reason' : 'Method'}</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <code>{r.id}</code>
                </td>
                <td>
                  <code>{r.order}</code>
                </td>
                <td>
                  {formatMoney(r.amount, r.currency)}
                  {!refunds && (r.amount_refunded ?? 0) > 0 && <span className="muted"> ({formatMoney(r.amount_refunded ?? 0, r.currency)} refunded)</span>}
                </td>
                <td>
                  <Badge tone={toneOf(r.status)}>{r.status}</Badge>
                  {!refunds && r.late && <Badge tone="warn">late</Badge>}
                  {r.failure_code && <span className="muted"> {r.failure_code}</span>}
                </td>
                <td>{refunds ? (r.reason ?? '—') : `${r.method}${r.payer_hint ? ` ••${r.payer_hint}` : ''}`}</td>
                <td>{formatDateTime(r.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
