import type { Payout, Promoter } from '@svc/contract';
import { Link, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { tsr } from '../../api/client';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { useOrganizations } from '../../ui/organizations';
import { Badge, EmptyState, ErrorNote, Loading, PageHeader, toneOf } from '../../ui/ui';
import { Assignments, TrackingCodes } from './assignments';
import { payoutColumns, PayoutForm } from './payouts';
import { balanceText } from './promoters';

/** One promoter: contact and balances, enable or disable, assignments, tracking codes, and payouts of the approved balance. */
export function PromoterDetailPage() {
  const { promoter: id } = useParams({ strict: false }) as { promoter: string };
  const environment = useEnvironment();
  const canWrite = useCan('promoters:write');
  const canPay = useCan('promoters:payout');
  const queries = useQueryClient();
  const { organizations } = useOrganizations();
  const retrieve = tsr.promoters.retrieve.useQuery({ queryKey: ['promoter', environment, id], queryData: { params: { id } } });
  const payouts = tsr.commissions.listPayouts.useQuery({ queryKey: ['payouts', environment, 'of', id], queryData: { query: { limit: 20, promoter: id } as never } });
  const move = tsr.promoters.update.useMutation();
  const promoter = (retrieve.data?.body as { data: Promoter } | undefined)?.data;

  if (retrieve.isPending) return <Loading what="Loading the promoter" />;
  if (!promoter) return <ErrorNote error={retrieve.error} />;
  const currency = promoter.balances[0]?.currency ?? organizations.find((o) => o.id === promoter.organization)?.currency ?? 'KES';
  const disabled = promoter.status === 'disabled';
  const reload = () => Promise.all([retrieve.refetch(), payouts.refetch(), queries.invalidateQueries({ queryKey: ['promoters'] })]);
  const doMove = async () => {
    if (!disabled && !confirm(`Disable ${promoter.name}? Their codes stop attributing; what they earned can still be paid.`)) return;
    await move.mutateAsync({ params: { id }, body: { status: disabled ? 'active' : 'disabled' } });
    await reload();
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/promoters/promoters">Promoters</Link> ›
      </p>
      <PageHeader title={promoter.name}>
        <Badge tone={toneOf(promoter.status === 'disabled' ? 'disabled' : promoter.status)}>{promoter.status}</Badge>
        {canWrite && (
          <button type="button" className={disabled ? undefined : 'danger'} disabled={move.isPending} onClick={() => void doMove().catch(() => undefined)}>
            {disabled ? 'Enable' : 'Disable'}
          </button>
        )}
      </PageHeader>
      <ErrorNote error={move.error} />
      <dl className="facts">
        <dt>Email</dt>
        <dd>{promoter.email ?? '—'}</dd>
        <dt>Phone</dt>
        <dd>{promoter.phone ?? '—'}</dd>
        <dt>Signed in</dt>
        <dd>{promoter.customer ? 'Yes' : 'Not yet'}</dd>
        <dt>Pending commission</dt>
        <dd>{balanceText(promoter, 'pending')}</dd>
        <dt>Approved, not paid</dt>
        <dd>{balanceText(promoter, 'approved')}</dd>
        <dt>Ledger</dt>
        <dd>
          <Link to="/promoters/commissions" search={{ promoter: id }}>
            Commission entries
          </Link>
        </dd>
      </dl>
      <Assignments promoter={promoter} currency={currency} />
      <TrackingCodes promoter={promoter} />
      <section aria-labelledby="payouts">
        <h2 id="payouts">Payouts</h2>
        <List<Payout>
          caption={`Payouts to ${promoter.name}, newest first`}
          query={payouts}
          rows={rowsOf<Payout>(payouts)}
          rowKey={(p) => p.id}
          loading="Loading payouts"
          empty={
            <EmptyState title="No payouts yet">
              <p>Commission is approved once the event has ended and the refund window passed; then pay it out here.</p>
            </EmptyState>
          }
          columns={payoutColumns}
        />
        {canPay && <PayoutForm promoter={promoter} onDone={() => void reload()} />}
      </section>
    </>
  );
}
