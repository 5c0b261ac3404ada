import type { Fanbase, Subscription } from '@svc/contract';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { tsr } from '../../api/client';
import { formatDateTime, formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { CustomerName } from '../../ui/customer';
import { List, rowsOf, usePages } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, PageHeader, toneOf } from '../../ui/ui';

type Filters = { fanbase?: string; status?: string; tier?: string };

const INTERVAL: Record<Subscription['interval'], string> = { month: 'a month', year: 'a year', one_time: 'once' };

/** Subscriptions of the fanbases, by fanbase and status (in the URL), page by page; cancel at the period end or resume. */
export function SubscriptionsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('fanbases:write');
  const pages = usePages(JSON.stringify(search));
  const list = tsr.subscriptions.list.useQuery({
    queryKey: ['subscriptions', environment, search, pages.query],
    queryData: { query: { limit: 50, expand: ['customer'], ...withoutEmpty(search), ...pages.query } as never },
  });
  const fanbases = rowsOf<Fanbase>(tsr.fanbases.list.useQuery({ queryKey: ['fanbases', environment], queryData: { query: { limit: 100 } as never } }));
  const cancel = tsr.subscriptions.cancel.useMutation();
  const resume = tsr.subscriptions.resume.useMutation();
  const act = async (s: Subscription) => {
    if (s.cancel_at_period_end) await resume.mutateAsync({ params: { id: s.id } });
    else {
      if (!confirm(`Cancel ${s.id} at the end of its period? Access continues until then.`)) return;
      await cancel.mutateAsync({ params: { id: s.id }, body: { at_period_end: true } });
    }
    await list.refetch();
  };

  return (
    <>
      <PageHeader title="Subscriptions" />
      <ErrorNote error={cancel.error ?? resume.error} />
      <List<Subscription>
        caption="Subscriptions, newest first"
        query={list}
        rows={rowsOf<Subscription>(list)}
        rowKey={(s) => s.id}
        pages={pages}
        loading="Loading subscriptions"
        filters={{
          fields: [
            { key: 'fanbase', label: 'Fanbase', options: fanbases.map((f) => ({ value: f.id, label: f.name })) },
            { key: 'status', label: 'Status', options: ['incomplete', 'active', 'past_due', 'cancelled', 'expired'] },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/fans/subscriptions', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No subscriptions here">
            <p>Publish a paid tier of a fanbase: each fan who subscribes shows here with their renewals.</p>
          </EmptyState>
        }
        columns={[
          { header: 'Customer', cell: (s) => <CustomerName customer={s.customer} /> },
          { header: 'Subscription', cell: (s) => <code>{s.id}</code>, wide: true },
          {
            header: 'Status',
            cell: (s) => (
              <>
                <Badge tone={toneOf(s.status === 'past_due' ? 'pending' : s.status)}>{s.status}</Badge>
                {s.cancel_at_period_end && <div className="muted">Ends at the period end</div>}
              </>
            ),
          },
          { header: 'Amount', cell: (s) => `${formatMoney(s.amount, s.currency)} ${INTERVAL[s.interval]}` },
          { header: 'Period ends', cell: (s) => formatDateTime(s.current_period_end) },
          canWrite && {
            header: 'Actions',
            cell: (s) =>
              s.status === 'active' && s.interval !== 'one_time' ? (
                <button type="button" className={s.cancel_at_period_end ? 'secondary' : 'danger'} disabled={cancel.isPending || resume.isPending} onClick={() => void act(s).catch(() => undefined)}>
                  {s.cancel_at_period_end ? 'Resume' : 'Cancel at period end'}
                  <span className="sr-only"> {s.id}</span>
                </button>
              ) : null,
          },
        ]}
      />
    </>
  );
}
