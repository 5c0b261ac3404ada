import type { ReportRow } from '@svc/contract';
import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { readableOrganizations, requirePromoterPermission, type OrganizerCaller } from '../promoters-access';
import { getPromoterRow } from '../promoters/promoters.service';

export interface ReportQuery {
  organization?: string;
  event?: string;
  product?: string;
  from?: string;
  to?: string;
}

interface Row {
  promoter_id: string;
  name: string;
  target_type: string;
  target_id: string;
  currency: string;
  orders: number;
  items: number;
  gross: number;
  net: number;
  pending: number;
  approved: number;
  paid: number;
  reversed: number;
  clicks: number;
}

/** Sales and commission per promoter (or per promoter and target), from the sale rows and the ledger, in one statement. */
async function reportRows(ctx: AppContext, scope: Scope, q: ReportQuery & { organizations: string[] | null; promoter?: string; byTarget: boolean }): Promise<Row[]> {
  const where = [sql`s.tenant_id = ${scope.tenantId}`, sql`s.livemode = ${scope.livemode}`];
  if (q.organizations) where.push(q.organizations.length ? sql`s.organization_id in (${sql.join(q.organizations)})` : sql`false`);
  if (q.organization) where.push(sql`s.organization_id = ${q.organization}`);
  if (q.event) where.push(sql`s.target_type = 'event' and s.target_id = ${q.event}`);
  if (q.product) where.push(sql`s.target_type = 'product' and s.target_id = ${q.product}`);
  if (q.from) where.push(sql`s.order_created_at >= ${new Date(q.from)}`);
  if (q.to) where.push(sql`s.order_created_at < ${new Date(q.to)}`);
  if (q.promoter) where.push(sql`s.promoter_id = ${q.promoter}`);
  const target = q.byTarget ? sql`s.target_type, s.target_id` : sql`'' as target_type, '' as target_id`;
  const group = q.byTarget ? sql`, s.target_type, s.target_id` : sql``;
  const { rows } = await sql<Row>`
    with sales as (select s.* from promoter_sales s where ${sql.join(where, sql` and `)}),
    ledger as (
      select c.order_id,
        sum(c.amount) filter (where c.status = 'pending') as pending,
        sum(c.amount) filter (where c.status = 'approved') as approved,
        sum(c.amount) filter (where c.status = 'paid') as paid,
        sum(c.amount) filter (where c.type = 'commission' and c.status = 'reversed') as reversed
      from commissions c where c.order_id in (select order_id from sales) group by c.order_id)
    select s.promoter_id, p.name, ${target}, s.currency,
      count(*)::int as orders, sum(s.items)::int as items, sum(s.gross)::int as gross, sum(s.net)::int as net,
      coalesce(sum(l.pending), 0)::int as pending, coalesce(sum(l.approved), 0)::int as approved,
      coalesce(sum(l.paid), 0)::int as paid, coalesce(sum(l.reversed), 0)::int as reversed,
      (select coalesce(sum(tc.clicks), 0)::int from tracking_codes tc where tc.promoter_id = s.promoter_id) as clicks
    from sales s join promoters p on p.id = s.promoter_id
    left join ledger l on l.order_id = s.order_id
    group by s.promoter_id, p.name, s.currency ${group}
    order by sum(s.net) desc, s.promoter_id`.execute(ctx.db);
  return rows;
}

const money = (r: Row) => ({ pending: r.pending, approved: r.approved, paid: r.paid, reversed: r.reversed });

/** The leaderboard: one row per promoter and currency, highest net first. */
export async function promotersReport(ctx: AppContext, caller: OrganizerCaller, q: ReportQuery): Promise<ReportRow[]> {
  if (q.organization) await requirePromoterPermission(ctx, caller, q.organization, 'promoters:read');
  const organizations = q.organization ? null : await readableOrganizations(ctx, caller);
  const rows = await reportRows(ctx, caller.scope, { ...q, organizations, byTarget: false });
  return rows.map((r) => ({ promoter: { id: r.promoter_id, name: r.name }, clicks: r.clicks, orders: r.orders, items: r.items, gross: r.gross, net: r.net, commission: money(r), currency: r.currency }));
}

export async function promoterReport(ctx: AppContext, caller: OrganizerCaller, id: string, q: Pick<ReportQuery, 'from' | 'to'>) {
  const promoter = await getPromoterRow(ctx, caller, id, 'promoters:read');
  const rows = await reportRows(ctx, caller.scope, { ...q, organizations: null, promoter: promoter.id, byTarget: true });
  return rows.map((r) => ({ target: { type: r.target_type as 'event' | 'product', id: r.target_id }, orders: r.orders, items: r.items, gross: r.gross, net: r.net, commission: money(r), currency: r.currency }));
}

const csvCell = (v: string | number) => {
  const s = String(v);
  // A leading formula character is neutralised so spreadsheets do not run it.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export function reportCsv(rows: readonly ReportRow[]): string {
  const header = ['promoter_id', 'promoter_name', 'clicks', 'orders', 'items', 'gross', 'net', 'commission_pending', 'commission_approved', 'commission_paid', 'commission_reversed', 'currency'];
  const lines = rows.map((r) =>
    [r.promoter.id, r.promoter.name, r.clicks, r.orders, r.items, r.gross, r.net, r.commission.pending, r.commission.approved, r.commission.paid, r.commission.reversed, r.currency].map(csvCell).join(','),
  );
  return [header.join(','), ...lines].join('\n') + '\n';
}

export function checkRange(q: ReportQuery) {
  if (q.from && q.to && new Date(q.from) >= new Date(q.to)) throw ApiError.of('validation_failed', { param: 'to', message: '`to` must be after `from`.', details: { to: ['Must be after `from`.'] } });
}
