import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { store } from './api/client';
import { stringParams } from './search';
import { Shell } from './shell';
import { SignInPage } from './routes/sign-in';

const root = createRootRoute({ component: Outlet });

const signIn = createRoute({ getParentRoute: () => root, path: '/sign-in', validateSearch: stringParams(['next']), component: SignInPage });

/** Every screen but sign-in needs a member; a missing session goes to sign-in and comes back after. */
const app = createRoute({
  getParentRoute: () => root,
  id: 'app',
  component: Shell,
  beforeLoad: ({ location }) => {
    if (!store.session) throw redirect({ to: '/sign-in', search: { next: location.href } });
  },
});

const home = createRoute({ getParentRoute: () => app, path: '/', component: lazyRouteComponent(() => import('./routes/home'), 'HomePage') });

// Developers
const keys = createRoute({ getParentRoute: () => app, path: '/developers/keys', component: lazyRouteComponent(() => import('./routes/developers/keys'), 'KeysPage') });
const requestLogs = createRoute({
  getParentRoute: () => app,
  path: '/developers/requests',
  validateSearch: stringParams(['id', 'status', 'path', 'method']),
  component: lazyRouteComponent(() => import('./routes/developers/request-logs'), 'RequestLogsPage'),
});

const eventLog = createRoute({
  getParentRoute: () => app,
  path: '/developers/events',
  validateSearch: stringParams(['type']),
  component: lazyRouteComponent(() => import('./routes/developers/event-log'), 'EventLogPage'),
});
const webhooks = createRoute({
  getParentRoute: () => app,
  path: '/developers/webhooks',
  validateSearch: stringParams(['endpoint']),
  component: lazyRouteComponent(() => import('./routes/developers/webhooks'), 'WebhooksPage'),
});

// Shows
const events = createRoute({
  getParentRoute: () => app,
  path: '/shows/events',
  validateSearch: stringParams(['status']),
  component: lazyRouteComponent(() => import('./routes/shows/events'), 'EventsPage'),
});
const event = createRoute({ getParentRoute: () => app, path: '/shows/events/$event', component: lazyRouteComponent(() => import('./routes/shows/event-detail'), 'EventDetailPage') });
const liveStreams = createRoute({
  getParentRoute: () => app,
  path: '/shows/streams',
  component: lazyRouteComponent(() => import('./routes/shows/live-streams'), 'LiveStreamsPage'),
});
const liveStream = createRoute({
  getParentRoute: () => app,
  path: '/shows/streams/$stream',
  component: lazyRouteComponent(() => import('./routes/shows/live-stream-detail'), 'LiveStreamDetailPage'),
});
const analytics = createRoute({ getParentRoute: () => app, path: '/shows/analytics', component: lazyRouteComponent(() => import('./routes/shows/analytics'), 'AnalyticsPage') });

// Money
const orders = createRoute({
  getParentRoute: () => app,
  path: '/money/payments',
  validateSearch: stringParams(['status', 'event']),
  component: lazyRouteComponent(() => import('./routes/money/payments'), 'PaymentsPage'),
});

const reconciliation = createRoute({
  getParentRoute: () => app,
  path: '/money/reconciliation',
  component: lazyRouteComponent(() => import('./routes/money/reconciliation'), 'ReconciliationPage'),
});
const attempts = createRoute({
  getParentRoute: () => app,
  path: '/money/attempts',
  validateSearch: stringParams(['view', 'status', 'order', 'method', 'late', 'failure_code', 'source']),
  component: lazyRouteComponent(() => import('./routes/money/attempts'), 'AttemptsPage'),
});

// Merch
const products = createRoute({
  getParentRoute: () => app,
  path: '/merch/products',
  validateSearch: stringParams(['status', 'kind', 'organization']),
  component: lazyRouteComponent(() => import('./routes/commerce/products'), 'ProductsPage'),
});
const product = createRoute({
  getParentRoute: () => app,
  path: '/merch/products/$product',
  component: lazyRouteComponent(() => import('./routes/commerce/product-detail'), 'ProductDetailPage'),
});
const productOrders = createRoute({
  getParentRoute: () => app,
  path: '/merch/orders',
  validateSearch: stringParams(['fulfillment_status', 'status', 'organization']),
  component: lazyRouteComponent(() => import('./routes/commerce/orders'), 'ProductOrdersPage'),
});
const commerceSettings = createRoute({
  getParentRoute: () => app,
  path: '/merch/settings',
  validateSearch: stringParams(['organization']),
  component: lazyRouteComponent(() => import('./routes/commerce/settings'), 'CommerceSettingsPage'),
});

// Fans
const fanbases = createRoute({
  getParentRoute: () => app,
  path: '/fans/fanbases',
  validateSearch: stringParams(['organization', 'status']),
  component: lazyRouteComponent(() => import('./routes/fans/fanbases'), 'FanbasesPage'),
});
const fanbase = createRoute({
  getParentRoute: () => app,
  path: '/fans/fanbases/$fanbase',
  component: lazyRouteComponent(() => import('./routes/fans/fanbase-detail'), 'FanbaseDetailPage'),
});
const members = createRoute({
  getParentRoute: () => app,
  path: '/fans/fanbases/$fanbase/members',
  validateSearch: stringParams(['search', 'status', 'tier', 'source', 'subscription_status']),
  component: lazyRouteComponent(() => import('./routes/fans/members'), 'MembersPage'),
});
const subscriptions = createRoute({
  getParentRoute: () => app,
  path: '/fans/subscriptions',
  validateSearch: stringParams(['fanbase', 'status', 'tier']),
  component: lazyRouteComponent(() => import('./routes/fans/subscriptions'), 'SubscriptionsPage'),
});

// Promoters
const promoters = createRoute({
  getParentRoute: () => app,
  path: '/promoters/promoters',
  validateSearch: stringParams(['organization', 'status']),
  component: lazyRouteComponent(() => import('./routes/promoters/promoters'), 'PromotersPage'),
});
const promoter = createRoute({
  getParentRoute: () => app,
  path: '/promoters/promoters/$promoter',
  component: lazyRouteComponent(() => import('./routes/promoters/promoter-detail'), 'PromoterDetailPage'),
});
const commissions = createRoute({
  getParentRoute: () => app,
  path: '/promoters/commissions',
  validateSearch: stringParams(['promoter', 'status', 'type', 'payout']),
  component: lazyRouteComponent(() => import('./routes/promoters/commissions'), 'CommissionsPage'),
});
const payouts = createRoute({
  getParentRoute: () => app,
  path: '/promoters/payouts',
  validateSearch: stringParams(['promoter', 'status', 'method']),
  component: lazyRouteComponent(() => import('./routes/promoters/payouts'), 'PayoutsPage'),
});
const leaderboard = createRoute({
  getParentRoute: () => app,
  path: '/promoters/leaderboard',
  validateSearch: stringParams(['organization', 'from', 'to']),
  component: lazyRouteComponent(() => import('./routes/promoters/leaderboard'), 'LeaderboardPage'),
});
const promoterSettings = createRoute({
  getParentRoute: () => app,
  path: '/promoters/settings',
  component: lazyRouteComponent(() => import('./routes/promoters/settings'), 'PromoterSettingsPage'),
});

// At the door: its own full-screen page, for a phone.
const door = createRoute({
  getParentRoute: () => root,
  path: '/door',
  validateSearch: stringParams(['event']),
  beforeLoad: ({ location }) => {
    if (!store.session) throw redirect({ to: '/sign-in', search: { next: location.href } });
  },
  component: lazyRouteComponent(() => import('./door/door-page'), 'DoorPage'),
});

const tree = root.addChildren([signIn, door, app.addChildren([home, keys, requestLogs, eventLog, webhooks, events, event, liveStreams, liveStream, analytics, orders, reconciliation, attempts, products, product, productOrders, commerceSettings, fanbases, fanbase, members, subscriptions, promoters, promoter, commissions, payouts, leaderboard, promoterSettings])]);

export const router = createRouter({ routeTree: tree, basepath: '/console', defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
