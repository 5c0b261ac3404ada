import type { ReportRow } from '@svc/contract';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { tsr } from '../../api/client';
import { download } from '../../api/download';
import { formatMoney } from '../../format';
import { reportRange } from '../../promoters/commission';
import { withoutEmpty } from '../../search';
import { useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { organizationOptions, useOrganizations } from '../../ui/organizations';
import { EmptyState, ErrorNote, PageHeader } from '../../ui/ui';

type Filters = { organization?: string; from?: string; to?: string };

/** The report's query: the organization and whole days (the URL keeps the dates as typed). */
const queryOf = (s: Filters) => ({ ...(s.organization ? { organization: s.organization } : {}), ...reportRange(s.from, s.to) });

/** Promoters ranked by net sales, per currency, with clicks, orders and commission; the same rows as a CSV. */
export function LeaderboardPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const { organizations } = useOrganizations();
  const [csvError, setCsvError] = useState<unknown>(null);
  const query = queryOf(search);
  const report = tsr.promoters.report.useQuery({ queryKey: ['promoter_report', environment, query], queryData: { query } });
  const csv = () => {
    setCsvError(null);
    download(`/v1/promoters/report/export?${new URLSearchParams(query)}`, 'promoters-report.csv').catch(setCsvError);
  };
  return (
    <>
      <PageHeader title="Leaderboard">
        <button type="button" className="secondary" onClick={csv}>
          Download CSV
        </button>
      </PageHeader>
      <ErrorNote error={csvError} />
      <List<ReportRow & { rank: number }>
        caption="Promoters by net sales, highest first"
        query={report}
        rows={rowsOf<ReportRow>(report).map((r, i) => ({ ...r, rank: i + 1 }))}
        rowKey={(r) => `${r.promoter.id}-${r.currency}`}
        loading="Loading the leaderboard"
        filters={{
          fields: [
            { key: 'organization', label: 'Organization', options: organizationOptions(organizations) },
            { key: 'from', label: 'From', type: 'date' },
            { key: 'to', label: 'To', type: 'date' },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/promoters/leaderboard', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No sales by promoters yet">
            <p>Orders brought by a promoter's code or link rank them here, by what they sold.</p>
          </EmptyState>
        }
        columns={[
          { header: 'Rank', cell: (r) => r.rank },
          { header: 'Promoter', cell: (r) => r.promoter.name },
          { header: 'Clicks', cell: (r) => r.clicks, wide: true },
          { header: 'Orders', cell: (r) => r.orders },
          { header: 'Items', cell: (r) => r.items, wide: true },
          { header: 'Net sales', cell: (r) => formatMoney(r.net, r.currency) },
          { header: 'Commission', cell: (r) => formatMoney(r.commission.pending + r.commission.approved + r.commission.paid, r.currency) },
          { header: 'Paid out', cell: (r) => formatMoney(r.commission.paid, r.currency), wide: true },
        ]}
      />
    </>
  );
}
