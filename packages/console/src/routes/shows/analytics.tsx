import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { tsr } from '../../api/client';
import { formatMajor } from '../../format';
import { useCan, useEnvironment } from '../../shell';
import { OrganizationField, useOrganizations } from '../../ui/organizations';
import { EmptyState, ErrorNote, Field, Loading, PageHeader } from '../../ui/ui';

type Body<T> = { body: { data: T } } | undefined;

/** Sales over time (analytics count money in major units, unlike the API's objects), revenue by day, per-event results and conversions for one organizer over a period. */
export function AnalyticsPage() {
  const environment = useEnvironment();
  const canOrgs = useCan('organizations:read');
  const [period, setPeriod] = useState('30d');
  const { organizations, pending } = useOrganizations();
  const [picked, setPicked] = useState('');
  const organization = picked || organizations[0]?.id || undefined;
  const query = { period, organization } as never;
  const ready = !canOrgs || Boolean(organization);
  const tickets = tsr.analytics.tickets.useQuery({ queryKey: ['analytics', 'tickets', environment, query], queryData: { query }, enabled: ready });
  const revenue = tsr.analytics.revenue.useQuery({ queryKey: ['analytics', 'revenue', environment, query], queryData: { query }, enabled: ready, retry: false });
  const events = tsr.analytics.events.useQuery({ queryKey: ['analytics', 'events', environment, query], queryData: { query }, enabled: ready });
  const conversions = tsr.analytics.conversions.useQuery({ queryKey: ['analytics', 'conversions', environment, query], queryData: { query }, enabled: ready });

  const ticketRows = ((tickets.data as Body<Array<{ date: string; tickets_sold?: number; count?: number }>>)?.body.data ?? []).map((r) => ({
    date: r.date,
    tickets: r.tickets_sold ?? r.count ?? 0,
  }));
  const revenueRows = (revenue.data as Body<Array<{ date: string; revenue: number; currency: string }>>)?.body.data ?? [];
  const perEvent = (events.data as Body<Array<{ event_id: string; event_name: string; tickets_sold: number; revenue?: number; currency: string; checkin_rate_pct: number | null }>>)?.body.data ?? [];
  const conv = (conversions.data as Body<{ page_views: number; unique_visitors: number; orders: number; conversion_rate_pct: number }>)?.body.data;

  if (pending) return <Loading what="Loading organizers" />;
  if (canOrgs && organizations.length === 0) {
    return (
      <>
        <PageHeader title="Analytics" />
        <EmptyState title="No organizer yet">
          <p>Create an event first: its organizer's figures appear here.</p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Analytics" />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        {organizations.length > 1 && (
          <OrganizationField label="Organizer" organizations={organizations} value={organization ?? ''} onChange={setPicked} />
        )}
        <Field label="Period">
          <select value={period} onChange={(e) => setPeriod(e.target.value)}>
            <option value="7d">Last 7 days</option>
            <option value="30d">Last 30 days</option>
            <option value="90d">Last 90 days</option>
          </select>
        </Field>
      </form>
      <ErrorNote error={tickets.error ?? events.error ?? conversions.error} />
      {conv && (
        <dl className="stats">
          <div>
            <dt>Page views</dt>
            <dd>{conv.page_views}</dd>
          </div>
          <div>
            <dt>Unique visitors</dt>
            <dd>{conv.unique_visitors}</dd>
          </div>
          <div>
            <dt>Paid orders</dt>
            <dd>{conv.orders}</dd>
          </div>
          <div>
            <dt>Conversion</dt>
            <dd>{conv.conversion_rate_pct}%</dd>
          </div>
        </dl>
      )}
      <section aria-labelledby="sales-chart">
        <h2 id="sales-chart">Tickets sold per day</h2>
        {tickets.isPending ? (
          <Loading what="Loading sales" />
        ) : (
          <div className="chart" role="img" aria-label={`Tickets sold per day: ${ticketRows.reduce((n, r) => n + r.tickets, 0)} in the period`}>
            <ResponsiveContainer width="100%" height={220}>
              <LineChart data={ticketRows}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Line type="monotone" dataKey="tickets" stroke="#2f5bd3" strokeWidth={2} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        )}
      </section>
      {revenueRows.length > 0 && (
        <section aria-labelledby="revenue-chart">
          <h2 id="revenue-chart">Revenue per day</h2>
          <div className="chart" role="img" aria-label="Revenue per day">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={revenueRows}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" />
                <YAxis />
                <Tooltip formatter={(v) => formatMajor(Number(v), revenueRows[0]!.currency)} />
                <Bar dataKey="revenue" fill="#1f8a5b" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </section>
      )}
      <section aria-labelledby="per-event">
        <h2 id="per-event">Per event</h2>
        {perEvent.length === 0 ? (
          <p>No tickets sold in this period.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Tickets sold</th>
                <th scope="col">Revenue</th>
                <th scope="col">Checked in</th>
              </tr>
            </thead>
            <tbody>
              {perEvent.map((e) => (
                <tr key={e.event_id}>
                  <td>{e.event_name}</td>
                  <td>{e.tickets_sold}</td>
                  <td>{e.revenue === undefined ? '—' : formatMajor(e.revenue, e.currency)}</td>
                  <td>{e.checkin_rate_pct === null ? '—' : `${e.checkin_rate_pct}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
