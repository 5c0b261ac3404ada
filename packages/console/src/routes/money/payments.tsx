import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { tsr } from '../../api/client';
import type { Order } from '../../api/types';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { FilterForm } from '../developers/filters';

type Filters = { status?: string; event?: string };
const STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'cancelled', 'expired'];

/** Orders as payments: what was paid and refunded, filtered by status and event; a refund from the row. */
export function PaymentsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canRefund = useCan('events:write');
  const queries = useQueryClient();
  const list = tsr.orders.list.useQuery({
    queryKey: ['orders', environment, search.status, search.event],
    queryData: { query: { limit: 100, ...withoutEmpty(search) } as never },
  });
  const refund = tsr.ticketingPayments.refunds.create.useMutation();
  const orders = (list.data?.body as { data: Order[] } | undefined)?.data ?? [];
  const doRefund = async (o: Order) => {
    const left = o.amount_paid - o.amount_refunded;
    if (!confirm(`Refund ${formatMoney(left, o.currency)} of order ${o.code}? Its tickets are voided.`)) return;
    await refund.mutateAsync({ params: { id: o.id }, body: { reason: 'Refunded from the console' } });
    await queries.invalidateQueries({ queryKey: ['orders'] });
  };

  return (
    <>
      <PageHeader title="Payments" />
      <FilterForm<Filters> initial={search} apply={(v) => void navigate({ to: '/money/payments', search: withoutEmpty(v) })}>
        {(v, set) => (
          <>
            <Field label="Status">
              <select value={v.status ?? ''} onChange={(e) => set('status', e.target.value)}>
                <option value="">Any</option>
                {STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </Field>
            <Field label="Event (slug or id)">
              <input value={v.event ?? ''} onChange={(e) => set('event', e.target.value)} />
            </Field>
          </>
        )}
      </FilterForm>
      <ErrorNote error={list.error ?? refund.error} />
      {list.isPending ? (
        <Loading what="Loading payments" />
      ) : orders.length === 0 ? (
        <EmptyState title="No payments match">
          <p>
            Publish an <Link to="/shows/events">event</Link>: each booking shows here, paid or pending.
          </p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Orders and their payments, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Buyer</th>
              <th scope="col">Status</th>
              <th scope="col">Paid</th>
              <th scope="col">Refunded</th>
              <th scope="col">Created</th>
              {canRefund && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id}>
                <td>
                  <code>{o.code}</code>
                </td>
                <td>{o.buyer.name ?? o.buyer.email ?? o.buyer.phone ?? '—'}</td>
                <td>
                  <Badge tone={toneOf(o.status)}>{o.status}</Badge>
                </td>
                <td>{formatMoney(o.amount_paid, o.currency)}</td>
                <td>{o.amount_refunded ? formatMoney(o.amount_refunded, o.currency) : '—'}</td>
                <td>{formatDateTime(o.created_at)}</td>
                {canRefund && (
                  <td>
                    {(o.status === 'paid' || o.status === 'partially_refunded') && o.amount_paid > o.amount_refunded && (
                      <button type="button" className="danger" onClick={() => void doRefund(o).catch(() => undefined)} disabled={refund.isPending}>
                        Refund<span className="sr-only"> order {o.code}</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
