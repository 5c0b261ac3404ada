import type { Order } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { download } from '../../api/download';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { fulfilmentBody, fulfilmentMoves, MOVE_LABELS, productOrders, type FulfillableOrder, type FulfilmentMove } from '../../commerce/fulfilment';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, PageHeader, toneOf } from '../../ui/ui';
import { List, rowsOf } from '../../ui/list';
import { organizationOptions, useOrganizations } from '../../ui/organizations';

type Filters = { fulfillment_status?: string; status?: string; organization?: string };
const FULFILMENT = ['unfulfilled', 'fulfilled', 'shipped', 'delivered', 'returned'];

/** A shipped move asks for the carrier and tracking number; the others only confirm. */
function MoveForm({ order, move, onDone }: { order: Order; move: FulfilmentMove; onDone: (moved: boolean) => void }) {
  const fulfil = tsr.commerce.orders.fulfill.useMutation();
  const [form, setForm] = useState({ carrier: '', tracking_number: '', note: '' });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await fulfil.mutateAsync({ params: { id: order.id }, body: fulfilmentBody(move, form) });
    onDone(true);
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label={`${MOVE_LABELS[move]}: order ${order.code}`}>
      {move === 'shipped' && (
        <>
          <Field label="Carrier">
            <input maxLength={100} autoFocus value={form.carrier} onChange={(e) => setForm({ ...form, carrier: e.target.value })} />
          </Field>
          <Field label="Tracking number">
            <input maxLength={100} value={form.tracking_number} onChange={(e) => setForm({ ...form, tracking_number: e.target.value })} />
          </Field>
        </>
      )}
      <Field label="Note" hint="Sent to the buyer with the update.">
        <input maxLength={500} value={form.note} onChange={(e) => setForm({ ...form, note: e.target.value })} />
      </Field>
      <button type="submit" disabled={fulfil.isPending}>
        {MOVE_LABELS[move]}
      </button>
      <button type="button" className="secondary" onClick={() => onDone(false)}>
        Cancel
      </button>
      <ErrorNote error={fulfil.error} />
    </form>
  );
}

const shipTo = (o: Order) =>
  o.shipping_method === 'pickup'
    ? 'Pickup'
    : o.shipping_address
      ? [o.shipping_address.name, o.shipping_address.line1, o.shipping_address.city, o.shipping_address.country].join(', ')
      : '—';

/**
 * Product orders to fulfil, by fulfilment status (in the URL), with the moves each may make and the CSV to pack.
 * `GET /v1/orders` filters by kind and organization; the fulfilment status is kept here, of the newest 100.
 */
export function ProductOrdersPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('commerce:write');
  const queries = useQueryClient();
  const [moving, setMoving] = useState<{ id: string; move: FulfilmentMove } | null>(null);
  const [csvError, setCsvError] = useState<unknown>(null);
  const list = tsr.orders.list.useQuery({
    queryKey: ['orders', environment, 'product', search.status, search.organization, search.fulfillment_status],
    queryData: {
      query: {
        limit: 100,
        kind: 'product',
        ...(search.status ? { status: search.status } : {}),
        ...(search.organization ? { organization: search.organization } : {}),
        ...(search.fulfillment_status ? { fulfillment_status: search.fulfillment_status } : {}),
      } as never,
    },
  });
  const { organizations } = useOrganizations();
  const orders = productOrders(rowsOf<Order>(list), search.fulfillment_status).filter(
    (o) => !search.organization || o.organization === search.organization,
  );
  const csv = () => {
    setCsvError(null);
    const status = search.fulfillment_status || 'unfulfilled';
    // A member of organizations (not tenant staff) exports one organization's orders: the chosen one, or their only one.
    const organization = search.organization ?? (organizations.length === 1 ? organizations[0]!.id : undefined);
    const query = new URLSearchParams({ fulfillment_status: status, ...(organization ? { organization } : {}) });
    download(`/v1/commerce/orders/export?${query}`, `orders-${status}.csv`).catch(setCsvError);
  };

  return (
    <>
      <PageHeader title="Orders to fulfil">
        <button type="button" className="secondary" onClick={csv}>
          Download CSV to pack
        </button>
      </PageHeader>
      <ErrorNote error={csvError} />
      <List<Order>
        caption="Product orders, newest first"
        query={list}
        rows={orders}
        rowKey={(o) => o.id}
        loading="Loading orders"
        filters={{
          fields: [
            { key: 'fulfillment_status', label: 'Fulfilment', options: FULFILMENT },
            ...(organizations.length > 1 ? [{ key: 'organization', label: 'Organization', options: organizationOptions(organizations) }] : []),
            { key: 'status', label: 'Order status', options: ['paid', 'pending', 'partially_refunded', 'refunded', 'cancelled', 'expired'] },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/merch/orders', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No product orders here">
            <p>
              Publish a <Link to="/merch/products">product</Link>: each order of it shows here to pack, ship and deliver.
            </p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Order',
            cell: (o) => (
              <>
                <code>{o.code}</code>
                <div className="muted">{o.buyer.name ?? o.buyer.email ?? o.buyer.phone ?? ''}</div>
              </>
            ),
          },
          {
            header: 'Items',
            cell: (o) =>
              o.line_items.map((l) => (
                <div key={l.id}>
                  {l.quantity} × {l.description}
                </div>
              )),
          },
          {
            header: 'Ship to',
            cell: (o) => (
              <>
                {shipTo(o)}
                {o.fulfillment?.tracking_number && (
                  <div className="muted">
                    {o.fulfillment.carrier} {o.fulfillment.tracking_number}
                  </div>
                )}
              </>
            ),
          },
          {
            header: 'Status',
            cell: (o) => (
              <>
                <Badge tone={toneOf(o.status)}>{o.status}</Badge>
                {o.fulfillment_status && <Badge tone={o.fulfillment_status === 'returned' ? 'bad' : o.fulfillment_status === 'unfulfilled' ? 'warn' : 'ok'}>{o.fulfillment_status}</Badge>}
              </>
            ),
          },
          { header: 'Total', cell: (o) => formatMoney(o.amount_total, o.currency) },
          { header: 'Created', cell: (o) => formatDateTime(o.created_at), wide: true },
          canWrite && {
            header: 'Actions',
            cell: (o) => (
              <div className="row-actions">
                {fulfilmentMoves(o as FulfillableOrder).map((m) => (
                  <button key={m} type="button" className="secondary" aria-expanded={moving?.id === o.id && moving.move === m} onClick={() => setMoving({ id: o.id, move: m })}>
                    {MOVE_LABELS[m]}
                    <span className="sr-only"> order {o.code}</span>
                  </button>
                ))}
              </div>
            ),
          },
        ]}
      />
      {canWrite &&
        orders
          .filter((o) => o.id === moving?.id)
          .map((o) => (
            <MoveForm
              key={`${o.id}-${moving!.move}`}
              order={o}
              move={moving!.move}
              onDone={(moved) => {
                setMoving(null);
                if (moved) void queries.invalidateQueries({ queryKey: ['orders'] });
              }}
            />
          ))}
    </>
  );
}
