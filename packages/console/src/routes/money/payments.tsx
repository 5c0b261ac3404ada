import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { tsr } from '../../api/client';
import type { Order } from '../../api/types';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf, usePages } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, PageHeader, toneOf } from '../../ui/ui';

type Filters = { status?: string; event?: string };
const STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'cancelled', 'expired'];

/** Orders as payments: what was paid and refunded, filtered by status and event; a refund from the row. */
export function PaymentsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canRefund = useCan('events:write');
  const queries = useQueryClient();
  const pages = usePages(JSON.stringify(search));
  const list = tsr.orders.list.useQuery({
    queryKey: ['orders', environment, search.status, search.event, pages.query],
    queryData: { query: { limit: 100, ...withoutEmpty(search), ...pages.query } as never },
  });
  const refund = tsr.ticketingPayments.refunds.create.useMutation();
  const doRefund = async (o: Order) => {
    const left = o.amount_paid - o.amount_refunded;
    if (!confirm(`Refund ${formatMoney(left, o.currency)} of order ${o.code}? Its tickets are voided.`)) return;
    await refund.mutateAsync({ params: { id: o.id }, body: { reason: 'Refunded from the console' } });
    await queries.invalidateQueries({ queryKey: ['orders'] });
  };

  return (
    <>
      <PageHeader title="Payments" />
      <ErrorNote error={refund.error} />
      <List<Order>
        caption="Orders and their payments, newest first"
        query={list}
        rows={rowsOf<Order>(list)}
        rowKey={(o) => o.id}
        pages={pages}
        loading="Loading payments"
        filters={{
          fields: [
            { key: 'status', label: 'Status', options: STATUSES },
            { key: 'event', label: 'Event (slug or id)' },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/money/payments', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No payments match">
            <p>
              Publish an <Link to="/shows/events">event</Link>: each booking shows here, paid or pending.
            </p>
          </EmptyState>
        }
        columns={[
          { header: 'Order', cell: (o) => <code>{o.code}</code> },
          { header: 'Buyer', cell: (o) => o.buyer.name ?? o.buyer.email ?? o.buyer.phone ?? '—' },
          { header: 'Status', cell: (o) => <Badge tone={toneOf(o.status)}>{o.status}</Badge> },
          { header: 'Paid', cell: (o) => formatMoney(o.amount_paid, o.currency) },
          { header: 'Refunded', cell: (o) => (o.amount_refunded ? formatMoney(o.amount_refunded, o.currency) : '—') },
          { header: 'Created', cell: (o) => formatDateTime(o.created_at) },
          canRefund && {
            header: 'Actions',
            cell: (o) =>
              (o.status === 'paid' || o.status === 'partially_refunded') &&
              o.amount_paid > o.amount_refunded && (
                <button type="button" className="danger" onClick={() => void doRefund(o).catch(() => undefined)} disabled={refund.isPending}>
                  Refund<span className="sr-only"> order {o.code}</span>
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
