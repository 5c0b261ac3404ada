import { contract, type AnalyticsQuery } from '@svc/contract';
import type { ServerInferResponseBody } from '@ts-rest/core';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { asBody, JsonBytes } from '../../../core/json-bytes';
import { nowOf } from '../orders/order-transitions';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { analyticsCallerOf, type AnalyticsCaller } from './analytics-caller';
import { AnalyticsCache, CACHE_TTL_SECONDS, changeOf, conversionOf, major, periodOf, round1, type Period } from './analytics-period';
import * as q from './analytics.repository';
import { promoterOrganization } from '../orders/order-listeners';

const caches = new WeakMap<AppContext, AnalyticsCache>();
const cacheOf = (ctx: AppContext) => caches.get(ctx) ?? caches.set(ctx, new AnalyticsCache()).get(ctx)!;

type EventQuery = AnalyticsQuery & { event_id?: string | undefined; limit?: number };
type Routes = typeof contract.analytics;
/** The 200 body a report answers, as the contract declares it. */
type Body<R extends Routes[keyof Routes]> = ServerInferResponseBody<R, 200>;
type Build<T> = (ctx: AppContext, who: AnalyticsCaller, period: Period, query: EventQuery, filter: q.Filter) => Promise<T>;

/** Resolves the caller and period, checks the event, and answers from the cache or `build`. */
const keyOf = (route: string, caller: OrganizerCaller, organization: string, query: EventQuery, revenueVisible: boolean) =>
  [route, caller.scope.tenantId, caller.scope.livemode, organization, query.period, query.compare, query.event_id ?? '', query.limit ?? '', query.promoter ?? '', revenueVisible].join('|');

/**
 * The report's answer, serialized once when it is made and kept so: a kept answer is sent as its bytes
 * (`core/json-bytes.ts`), typed as the body it holds.
 */
async function answer<T>(ctx: AppContext, caller: OrganizerCaller, route: string, query: EventQuery, build: Build<T>): Promise<T> {
  // A secret key that names the organization sees revenue and holds no membership to check: an answer kept for it
  // (made after the organization, and the event if named, were found in this tenant and environment; neither is
  // ever deleted or moved) is served without reading them again.
  if (caller.kind === 'secret' && query.organization) {
    const kept = cacheOf(ctx).peek(keyOf(route, caller, query.organization, query, true));
    if (kept !== undefined) return asBody<T>(kept);
  }
  const who = await analyticsCallerOf(ctx, caller, query.organization);
  const filter: q.Filter = { organizationId: who.organization.id, eventId: query.event_id, promoterId: query.promoter, timezone: who.organization.timezone };
  if (query.promoter && (await promoterOrganization(ctx.db, caller.scope, query.promoter)) !== who.organization.id) {
    throw ApiError.notFound('promoter', query.promoter);
  }
  if (query.event_id && !(await q.eventOfOrganization(ctx.db, who.organization.id, query.event_id))) {
    throw ApiError.notFound('event', query.event_id);
  }
  const json = await cacheOf(ctx).get(keyOf(route, caller, who.organization.id, query, who.revenueVisible), async () =>
    new JsonBytes(await build(ctx, who, periodOf(query.period, who.organization.timezone, nowOf(ctx)), query, filter)),
  );
  return asBody<T>(json);
}

/** How many sources `traffic_sources` names. */
const TOP_SOURCES = 5;

const rangeOf = (who: AnalyticsCaller, p: Period) => ({ from: p.current.from, to: p.current.to, timezone: who.organization.timezone });

const overview: Build<Body<Routes['overview']>> = async (ctx, who, p, query, f) => {
  const [sales, views, byDay, events, sources] = await Promise.all([
    q.salesTotals(ctx.db, f, p.current),
    q.viewTotals(ctx.db, f, p.current),
    q.salesByDay(ctx.db, f, p.current),
    q.eventFigures(ctx.db, f, p.current),
    q.topTrafficSources(ctx.db, f, p.current, TOP_SOURCES),
  ]);
  const before = query.compare ? await Promise.all([q.salesTotals(ctx.db, f, p.previous), q.viewTotals(ctx.db, f, p.previous)]) : null;
  const conversion = conversionOf(sales.orders, views.visitors);
  const prevConversion = before ? conversionOf(before[0].orders, before[1].visitors) : null;
  const revenueOn = new Map(byDay.map((d) => [d.day, d.revenue]));
  return {
    data: {
      stats: {
        ...(who.revenueVisible
          ? {
              total_revenue: { value: major(sales.revenue), currency: who.organization.currency, change_percentage: changeOf(sales.revenue, before ? before[0].revenue : null) },
              add_on_revenue: {
                value: major(sales.addOnsRevenue),
                currency: who.organization.currency,
                change_percentage: changeOf(sales.addOnsRevenue, before ? before[0].addOnsRevenue : null),
              },
            }
          : {}),
        tickets_sold: { value: sales.tickets, change_percentage: changeOf(sales.tickets, before ? before[0].tickets : null) },
        page_views: { value: views.views, change_percentage: changeOf(views.views, before ? before[1].views : null) },
        conversion_rate: { value: conversion, change_percentage: changeOf(conversion, prevConversion) },
      },
      ...(who.revenueVisible ? { sales_trend: { labels: p.labels, data: p.labels.map((d) => Math.round(major(revenueOn.get(d) ?? 0))) } } : {}),
      traffic_sources: sources,
      top_events: events
        .filter((e) => e.tickets > 0)
        .slice(0, 5)
        .map((e) => ({
          id: e.id,
          name: e.name,
          tickets_sold: e.tickets,
          ...(who.revenueVisible ? { revenue: major(e.revenue) } : {}),
          conversion_rate: Math.round(conversionOf(e.orders, e.visitors)),
        })),
    },
    meta: { generated_at: nowOf(ctx).toISOString(), period: query.period, cache_ttl_seconds: CACHE_TTL_SECONDS, organization: who.organization.id },
  };
};

const revenue: Build<Body<Routes['revenue']>> = async (ctx, who, p, query, f) => {
  if (!who.revenueVisible) {
    throw ApiError.of('missing_permission', { message: 'Revenue is shown to organization owners and admins and to secret keys.', details: { required_permission: 'organization_members:write' } });
  }
  const days = (await q.salesByDay(ctx.db, f, p.current)).filter((d) => d.revenue !== 0 || d.addOnsRevenue !== 0);
  const total = days.reduce((sum, d) => sum + d.revenue, 0);
  const addOns = days.reduce((sum, d) => sum + d.addOnsRevenue, 0);
  return {
    data: days.map((d) => ({ date: d.day, revenue: major(d.revenue), add_on_revenue: major(d.addOnsRevenue), currency: who.organization.currency })),
    meta: { range: rangeOf(who, p), period: query.period, total_revenue: major(total), total_add_on_revenue: major(addOns), cache_ttl_seconds: CACHE_TTL_SECONDS },
  };
};

const tickets: Build<Body<Routes['tickets']>> = async (ctx, who, p, query, f) => {
  const days = (await q.salesByDay(ctx.db, f, p.current)).filter((d) => d.tickets !== 0);
  return {
    data: days.map((d) => ({ date: d.day, tickets_sold: d.tickets })),
    meta: { range: rangeOf(who, p), period: query.period, total_tickets: days.reduce((s, d) => s + d.tickets, 0), cache_ttl_seconds: CACHE_TTL_SECONDS },
  };
};

const events: Build<Body<Routes['events']>> = async (ctx, who, p, query, f) => {
  const rows = await q.eventFigures(ctx.db, f, p.current);
  const limit = query.limit ?? 20;
  return {
    data: rows.slice(0, limit).map((e) => ({
      event_id: e.id,
      event_name: e.name,
      slug: e.slug,
      status: e.status,
      tickets_sold: e.tickets,
      capacity: e.capacity,
      utilization_pct: e.capacity ? round1((e.validTickets / e.capacity) * 100) : e.capacity === 0 ? 0 : null,
      ...(who.revenueVisible ? { revenue: major(e.revenue), add_on_revenue: major(e.addOnsRevenue) } : {}),
      currency: e.currency,
      checkin_rate_pct: e.validTickets === 0 ? null : round1((e.checkedIn / e.validTickets) * 100),
    })),
    meta: { total_events: rows.length, limit, sort: 'tickets_sold', period: query.period, cache_ttl_seconds: CACHE_TTL_SECONDS },
  };
};

const audience: Build<Body<Routes['audience']>> = async (ctx, who, p, query, f) => {
  const [types, sales, people] = await Promise.all([q.ticketTypeShares(ctx.db, f, p.current), q.salesTotals(ctx.db, f, p.current), q.attendeeCounts(ctx.db, f, p.current)]);
  const all = types.reduce((s, t) => s + t.count, 0);
  return {
    data: {
      ticket_types: types.map((t) => ({ name: t.name, count: t.count, percentage: round1((t.count / all) * 100) })),
      avg_ticket_price: sales.tickets === 0 ? 0 : Math.round(sales.gross / sales.tickets) / 100,
      currency: who.organization.currency,
      total_unique_attendees: people.unique,
      repeat_attendees: people.repeat,
    },
    meta: { period: query.period, cache_ttl_seconds: CACHE_TTL_SECONDS },
  };
};

const conversions: Build<Body<Routes['conversions']>> = async (ctx, _who, p, query, f) => {
  const [sales, views, coupons] = await Promise.all([q.salesTotals(ctx.db, f, p.current), q.viewTotals(ctx.db, f, p.current), q.couponUses(ctx.db, f, p.current)]);
  return {
    data: {
      page_views: views.views,
      unique_visitors: views.visitors,
      orders: sales.orders,
      conversion_rate_pct: conversionOf(sales.orders, views.visitors),
      coupon_usage: {
        total_uses: coupons.reduce((s, c) => s + c.uses, 0),
        total_discount: major(coupons.reduce((s, c) => s + c.discount, 0)),
        orders_with_coupon: sales.couponOrders,
        top_coupons: coupons.slice(0, 5).map((c) => ({ code: c.code, uses: c.uses, discount_total: major(c.discount) })),
      },
    },
    meta: { period: query.period, cache_ttl_seconds: CACHE_TTL_SECONDS },
  };
};

export const analyticsReports = { overview, revenue, tickets, events, audience, conversions };
export const analyticsAnswer = answer;
