import type { Commission, Promoter } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { tsr } from '../../api/client';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useEnvironment } from '../../shell';
import { List, rowsOf, usePages } from '../../ui/list';
import { Badge, EmptyState, PageHeader } from '../../ui/ui';

type Filters = { promoter?: string; status?: string; type?: string; payout?: string };

const TONE = { pending: 'warn', approved: 'ok', paid: 'ok', reversed: 'bad' } as const;

/** The commission ledger: entries and reversals by promoter, status, type and payout (in the URL), page by page. */
export function CommissionsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const pages = usePages(JSON.stringify(search));
  const list = tsr.commissions.listCommissions.useQuery({
    queryKey: ['commissions', environment, search, pages.query],
    queryData: { query: { limit: 50, ...withoutEmpty(search), ...pages.query } as never },
  });
  const promoters = rowsOf<Promoter>(tsr.promoters.list.useQuery({ queryKey: ['promoters', environment, 'all'], queryData: { query: { limit: 100 } as never } }));
  const name = (id: string) => promoters.find((p) => p.id === id)?.name ?? id;
  return (
    <>
      <PageHeader title="Commission ledger" />
      <List<Commission>
        caption="Commission entries, newest first"
        query={list}
        rows={rowsOf<Commission>(list)}
        rowKey={(c) => c.id}
        pages={pages}
        loading="Loading the ledger"
        filters={{
          fields: [
            { key: 'promoter', label: 'Promoter', options: promoters.map((p) => ({ value: p.id, label: p.name })) },
            { key: 'status', label: 'Status', options: ['pending', 'approved', 'paid', 'reversed'] },
            { key: 'type', label: 'Type', options: ['commission', 'reversal'] },
            { key: 'payout', label: 'Payout (po_…)' },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/promoters/commissions', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No commission entries here">
            <p>An order a promoter brought writes an entry when it is paid; a refund writes a reversal.</p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Promoter',
            cell: (c) => (
              <Link to="/promoters/promoters/$promoter" params={{ promoter: c.promoter }}>
                {name(c.promoter)}
              </Link>
            ),
          },
          { header: 'Order', cell: (c) => <code>{c.order}</code> },
          { header: 'Type', cell: (c) => c.type, wide: true },
          { header: 'Amount', cell: (c) => formatMoney(c.amount, c.currency) },
          { header: 'Status', cell: (c) => <Badge tone={TONE[c.status]}>{c.status}</Badge> },
          { header: 'Approves', cell: (c) => (c.status === 'pending' ? formatDateTime(c.available_at) : formatDateTime(c.approved_at)), wide: true },
          { header: 'Payout', cell: (c) => (c.payout ? <code>{c.payout}</code> : '—'), wide: true },
        ]}
      />
    </>
  );
}
