import type { FanbaseMembership, MembershipTier } from '@svc/contract';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { tsr } from '../../api/client';
import { download } from '../../api/download';
import { formatDateTime } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { CustomerName } from '../../ui/customer';
import { List, rowsOf, usePages } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, PageHeader } from '../../ui/ui';
import { AddMemberForm } from './add-member';

type Filters = { search?: string; status?: string; tier?: string; source?: string; subscription_status?: string };

/** A fanbase's members, searched and filtered in the URL, page by page; the same filters as a CSV; a comp member added; a member removed. */
export function MembersPage() {
  const { fanbase: id } = useParams({ strict: false }) as { fanbase: string };
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('fanbases:write');
  const [csvError, setCsvError] = useState<unknown>(null);
  const [adding, setAdding] = useState(false);
  const pages = usePages(JSON.stringify(search));
  const list = tsr.fanbases.listMembers.useQuery({
    queryKey: ['members', environment, id, search, pages.query],
    queryData: { params: { id }, query: { limit: 50, expand: ['customer'], ...withoutEmpty(search), ...pages.query } as never },
  });
  const tierList = tsr.fanbases.listTiers.useQuery({ queryKey: ['tiers', environment, id], queryData: { params: { id }, query: { limit: 100 } as never } });
  const tiers = rowsOf<MembershipTier>(tierList);
  const remove = tsr.fanbases.removeMember.useMutation();
  const tierName = (t: string | null) => (t ? (tiers.find((x) => x.id === t)?.name ?? t) : '—');
  const csv = () => {
    setCsvError(null);
    download(`/v1/fanbases/${id}/members/export?${new URLSearchParams(withoutEmpty(search) as Record<string, string>)}`, 'members.csv').catch(setCsvError);
  };
  const doRemove = async (m: FanbaseMembership) => {
    if (!confirm('Remove this member? Their access ends and a running subscription is cancelled now, without refund.')) return;
    await remove.mutateAsync({ params: { id, membership: m.id } });
    await list.refetch();
  };
  const filtered = Object.keys(withoutEmpty(search)).length > 0;

  return (
    <>
      <p className="crumbs">
        <Link to="/fans/fanbases/$fanbase" params={{ fanbase: id }}>
          Fanbase
        </Link>{' '}
        ›
      </p>
      <PageHeader title="Members">
        {canWrite && !adding && (
          <button type="button" onClick={() => setAdding(true)}>
            Add comp member
          </button>
        )}
        <button type="button" className="secondary" onClick={csv}>
          Download CSV
        </button>
      </PageHeader>
      {canWrite && adding && (
        <AddMemberForm
          fanbase={id}
          tiers={tiers}
          onDone={(saved) => {
            setAdding(false);
            if (saved) void list.refetch();
          }}
        />
      )}
      <ErrorNote error={csvError ?? remove.error} />
      <List<FanbaseMembership>
        caption="Members, newest first"
        query={list}
        rows={rowsOf<FanbaseMembership>(list)}
        rowKey={(m) => m.id}
        pages={pages}
        loading="Loading members"
        filters={{
          fields: [
            { key: 'search', label: 'Search', type: 'search' },
            { key: 'status', label: 'Status', options: ['active', 'left'] },
            { key: 'tier', label: 'Tier', options: tiers.map((t) => ({ value: t.id, label: t.name })) },
            { key: 'source', label: 'Source', options: ['join', 'subscription', 'comp'] },
            { key: 'subscription_status', label: 'Subscription', options: ['incomplete', 'active', 'past_due', 'cancelled', 'expired'] },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/fans/fanbases/$fanbase/members', params: { fanbase: id }, search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title={filtered ? 'No members match' : 'No members yet'}>
            <p>{filtered ? 'Clear a filter to see more.' : 'Fans who join the fanbase or subscribe to a tier, and comp members you add, show here.'}</p>
          </EmptyState>
        }
        columns={[
          { header: 'Member', cell: (m) => <CustomerName customer={m.customer} /> },
          { header: 'Status', cell: (m) => <Badge tone={m.status === 'active' ? 'ok' : 'muted'}>{m.status}</Badge> },
          { header: 'Tier', cell: (m) => tierName(m.tier) },
          { header: 'Source', cell: (m) => m.source, wide: true },
          { header: 'Subscription', cell: (m) => (m.subscription ? <code>{m.subscription}</code> : '—'), wide: true },
          { header: 'Joined', cell: (m) => formatDateTime(m.joined_at) },
          canWrite && {
            header: 'Actions',
            cell: (m) =>
              m.status === 'active' && (
                <button type="button" className="danger" disabled={remove.isPending} onClick={() => void doRemove(m).catch(() => undefined)}>
                  Remove<span className="sr-only"> member {m.id}</span>
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
