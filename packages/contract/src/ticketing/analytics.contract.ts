import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';

const c = initContract();

/** Keys see every organization of the environment; a signed-in member those where their role grants `events:read`. */
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'events:read', permission: 'events:read', product: 'events' });
const errors = errorResponses(...COMMON_ERROR_STATUSES, 422);

/** `Nd`, N from 1 to 365. */
export const AnalyticsPeriodSchema = z
  .string()
  .regex(/^([1-9]\d{0,2})d$/, 'A period is `Nd`, N from 1 to 365.')
  .refine((p) => Number(p.slice(0, -1)) <= 365, 'A period is `Nd`, N from 1 to 365.')
  .default('30d');

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const AnalyticsQuerySchema = z.object({
  period: AnalyticsPeriodSchema,
  compare: flag.default(false),
  /** The organization (`org_…`): a key or a member of several names it; a member of one may leave it out. */
  organization: z.string().max(255).optional(),
  promoter: z
    .string()
    .max(255)
    .optional()
    .describe('A `prm_` of the organization: sales figures (tickets, orders, revenue, ticket types, coupons used) count only the ticket orders attributed to it; page views, visitors and audience stay the organization\'s.'),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;
const EventQuery = AnalyticsQuerySchema.extend({ event_id: z.uuid().optional() });

const Change = z.number().nullable();
const Stat = <T extends z.ZodType>(value: T) => z.object({ value, change_percentage: Change });
const Range = z.object({ from: z.string(), to: z.string(), timezone: z.string() });

export const AnalyticsOverviewSchema = z.object({
  data: z.object({
    stats: z.object({
      total_revenue: z
        .object({ value: z.number(), currency: z.string(), change_percentage: Change })
        .optional()
        .describe('Ticket revenue: the ticket lines of paid orders, minus their refunds (a booking\'s add-ons are `add_on_revenue`).'),
      add_on_revenue: z
        .object({ value: z.number(), currency: z.string(), change_percentage: Change })
        .optional()
        .describe('Products added to bookings (their lines and shipping), minus their refunds; shown with `total_revenue`.'),
      tickets_sold: Stat(z.number().int()),
      page_views: Stat(z.number().int()),
      conversion_rate: Stat(z.number()),
    }),
    sales_trend: z.object({ labels: z.array(z.string()), data: z.array(z.number().int()) }).optional(),
    traffic_sources: z
      .array(z.string())
      .describe('Where the period\'s page views came from (the `source` of each public read, else `direct`): up to 5, most views first.'),
    top_events: z.array(
      z.object({ id: z.string(), name: z.string(), tickets_sold: z.number().int(), revenue: z.number().optional(), conversion_rate: z.number().int() }),
    ),
  }),
  meta: z.object({ generated_at: z.string(), period: z.string(), cache_ttl_seconds: z.number().int(), organization: z.string() }),
});

export const analyticsContract = c.router(
  {
    overview: {
      method: 'GET',
      path: '/v1/organizer/analytics',
      summary: 'Organizer analytics',
      description: 'Revenue, tickets sold, page views and conversion over the period (`Nd`, default `30d`), optionally compared with the window before it; the sales trend and top events. Revenue fields only for owners, admins and secret keys.',
      query: AnalyticsQuerySchema,
      responses: { 200: AnalyticsOverviewSchema, ...errors },
      metadata: read,
    },
    revenue: {
      method: 'GET',
      path: '/v1/organizer/analytics/revenue',
      summary: 'Revenue by day',
      description:
        'Succeeded payments minus succeeded refunds per day in the organization\'s timezone, comps excluded: `revenue` of tickets, ' +
        '`add_on_revenue` of products added to bookings (their lines and shipping). Owners, admins and secret keys only (`403` otherwise).',
      query: EventQuery,
      responses: {
        200: z.object({
          data: z.array(z.object({ date: z.string(), revenue: z.number(), add_on_revenue: z.number(), currency: z.string() })),
          meta: z.object({ range: Range, period: z.string(), total_revenue: z.number(), total_add_on_revenue: z.number(), cache_ttl_seconds: z.number().int() }),
        }),
        ...errors,
      },
      metadata: read,
    },
    tickets: {
      method: 'GET',
      path: '/v1/organizer/analytics/tickets',
      summary: 'Tickets sold by day',
      description: 'Paid, non-comp tickets per day of `paid_at`, optionally for one event.',
      query: EventQuery,
      responses: {
        200: z.object({
          data: z.array(z.object({ date: z.string(), tickets_sold: z.number().int() })),
          meta: z.object({ range: Range, period: z.string(), total_tickets: z.number().int(), cache_ttl_seconds: z.number().int() }),
        }),
        ...errors,
      },
      metadata: read,
    },
    events: {
      method: 'GET',
      path: '/v1/organizer/analytics/events',
      summary: 'Analytics per event',
      description: 'Each event of the organization with tickets sold in the period, utilization and check-in rate; `revenue` for owners, admins and secret keys.',
      query: AnalyticsQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
      responses: {
        200: z.object({
          data: z.array(
            z.object({
              event_id: z.string(),
              event_name: z.string(),
              slug: z.string(),
              status: z.string(),
              tickets_sold: z.number().int(),
              capacity: z.number().int().nullable(),
              utilization_pct: z.number().nullable(),
              revenue: z.number().optional().describe('Ticket revenue.'),
              add_on_revenue: z.number().optional().describe('Products added to the event\'s bookings (their lines and shipping), minus refunds.'),
              currency: z.string(),
              checkin_rate_pct: z.number().nullable(),
            }),
          ),
          meta: z.object({ total_events: z.number().int(), limit: z.number().int(), sort: z.string(), period: z.string(), cache_ttl_seconds: z.number().int() }),
        }),
        ...errors,
      },
      metadata: read,
    },
    audience: {
      method: 'GET',
      path: '/v1/organizer/analytics/audience',
      summary: 'Audience',
      description: 'Ticket-type shares, the average ticket price, unique and repeat attendees (by normalized email or phone) over the period.',
      query: AnalyticsQuerySchema,
      responses: {
        200: z.object({
          data: z.object({
            ticket_types: z.array(z.object({ name: z.string(), count: z.number().int(), percentage: z.number() })),
            avg_ticket_price: z.number(),
            currency: z.string(),
            total_unique_attendees: z.number().int(),
            repeat_attendees: z.number().int(),
          }),
          meta: z.object({ period: z.string(), cache_ttl_seconds: z.number().int() }),
        }),
        ...errors,
      },
      metadata: read,
    },
    conversions: {
      method: 'GET',
      path: '/v1/organizer/analytics/conversions',
      summary: 'Conversions and coupons',
      description: 'Page views, unique visitors, paid orders and their ratio, and coupon redemptions on paid orders, optionally for one event.',
      query: EventQuery,
      responses: {
        200: z.object({
          data: z.object({
            page_views: z.number().int(),
            unique_visitors: z.number().int(),
            orders: z.number().int(),
            conversion_rate_pct: z.number(),
            coupon_usage: z.object({
              total_uses: z.number().int(),
              total_discount: z.number(),
              orders_with_coupon: z.number().int(),
              top_coupons: z.array(z.object({ code: z.string(), uses: z.number().int(), discount_total: z.number() })),
            }),
          }),
          meta: z.object({ period: z.string(), cache_ttl_seconds: z.number().int() }),
        }),
        ...errors,
      },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);
