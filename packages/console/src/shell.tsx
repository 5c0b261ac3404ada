import { Link, Navigate, Outlet, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { store, tsr } from './api/client';
import { isStaff, permissionsOf, type Membership } from './api/permissions';
import type { Environment } from './api/session';
import { Loading } from './ui/ui';

const Permissions = createContext<{ any: Set<string>; tenant: Set<string> }>({ any: new Set(), tenant: new Set() });
/** Whether the signed-in member's role grants `permission` (with `tenant`: their tenant role, as the environment's settings need). */
export const useCan = (permission: string, scope: 'any' | 'tenant' = 'any') => useContext(Permissions)[scope].has(permission);

export const useEnvironment = () => useSyncExternalStore((l) => store.subscribe(l), () => store.environment);
const useSignedIn = () => useSyncExternalStore((l) => store.subscribe(l), () => store.session !== null);

const NAV: Array<{ section: string; links: Array<{ to: string; label: string; permission: string }> }> = [
  {
    section: 'Shows',
    links: [
      { to: '/shows/events', label: 'Events', permission: 'events:read' },
      { to: '/shows/streams', label: 'Live streams', permission: 'streams:read' },
      { to: '/shows/analytics', label: 'Analytics', permission: 'events:read' },
      { to: '/door', label: 'At the door', permission: 'events:checkin' },
    ],
  },
  {
    section: 'Money',
    links: [
      { to: '/money/payments', label: 'Payments', permission: 'events:read' },
      { to: '/money/reconciliation', label: 'Reconciliation', permission: 'payments:read' },
      { to: '/money/attempts', label: 'Payment attempts', permission: 'payments:read' },
    ],
  },
  {
    section: 'Merch',
    links: [
      { to: '/merch/products', label: 'Products', permission: 'commerce:read' },
      { to: '/merch/orders', label: 'Orders to fulfil', permission: 'commerce:read' },
      { to: '/merch/settings', label: 'Commerce settings', permission: 'commerce:read' },
    ],
  },
  {
    section: 'Fans',
    links: [
      { to: '/fans/fanbases', label: 'Fanbases', permission: 'fanbases:read' },
      { to: '/fans/subscriptions', label: 'Subscriptions', permission: 'fanbases:read' },
    ],
  },
  {
    section: 'Promoters',
    links: [
      { to: '/promoters/promoters', label: 'Promoters', permission: 'promoters:read' },
      { to: '/promoters/commissions', label: 'Commission ledger', permission: 'promoters:read' },
      { to: '/promoters/payouts', label: 'Payouts', permission: 'promoters:read' },
      { to: '/promoters/leaderboard', label: 'Leaderboard', permission: 'promoters:read' },
      { to: '/promoters/settings', label: 'Promoter settings', permission: 'promoters:read' },
    ],
  },
  {
    section: 'Developers',
    links: [
      { to: '/developers/keys', label: 'API keys', permission: 'developers:read' },
      { to: '/developers/requests', label: 'Request log', permission: 'developers:read' },
      { to: '/developers/events', label: 'Event log', permission: 'developers:read' },
      { to: '/developers/webhooks', label: 'Webhooks', permission: 'developers:read' },
    ],
  },
];

/** The test/live switch, always in view: every screen below reads and writes the chosen environment. */
function EnvironmentToggle({ enabled }: { enabled: boolean }) {
  const environment = useEnvironment();
  const queries = useQueryClient();
  const pick = (e: Environment) => {
    store.environment = e;
    // What was read in one environment is never shown in the other.
    queries.clear();
  };
  return (
    <div className={`env-toggle ${environment}`} role="group" aria-label="Data environment">
      {(['test', 'live'] as const).map((e) => (
        <button key={e} type="button" aria-pressed={environment === e} disabled={!enabled && environment !== e} onClick={() => pick(e)}>
          {e === 'test' ? 'Test data' : 'Live data'}
        </button>
      ))}
    </div>
  );
}

export function Shell() {
  const navigate = useNavigate();
  const environment = useEnvironment();
  const signedIn = useSignedIn();
  const user = tsr.identity.auth.getUser.useQuery({ queryKey: ['me'], staleTime: 60_000 });
  const memberships = ((user.data?.body as { data?: { memberships?: Membership[] } })?.data?.memberships ?? []) as Membership[];
  const permissions = permissionsOf(memberships);
  const tenantPermissions = permissionsOf(memberships, { tenantOnly: true });
  const me = store.session?.user;
  // An organization's member sees the environment their sign-in answers in (the API chooses it, not the toggle).
  const signedInLive = (user.data?.body as { data?: { livemode?: boolean } } | undefined)?.data?.livemode;
  useEffect(() => {
    if (!store.session?.ownEnvironment || signedInLive === undefined) return;
    const own = signedInLive ? 'live' : 'test';
    if (store.environment !== own) store.environment = own;
  }, [signedInLive]);
  const signOut = () => {
    void fetch('/auth/v1/logout', { method: 'POST', headers: { authorization: `Bearer ${store.session?.accessToken}`, 'content-type': 'application/json' }, body: '{}' });
    store.session = null;
    void navigate({ to: '/sign-in' });
  };
  // A session ended elsewhere (signed out in another tab, a refresh refused): back to sign-in.
  if (!signedIn) return <Navigate to="/sign-in" />;
  return (
    <Permissions.Provider value={{ any: permissions, tenant: tenantPermissions }}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      {environment === 'test' && <div className="test-banner">Test data: nothing here moves real money or sends real messages.</div>}
      <div className="layout">
        <nav className="sidebar" aria-label="Console">
          <Link to="/" className="brand">
            Svc console
          </Link>
          <EnvironmentToggle enabled={isStaff(memberships)} />
          {NAV.map((group) => {
            const links = group.links.filter((l) => permissions.has(l.permission));
            if (links.length === 0) return null;
            return (
              <div key={group.section} className="nav-group">
                <h2>{group.section}</h2>
                <ul>
                  {links.map((l) => (
                    <li key={l.to}>
                      <Link to={l.to} activeProps={{ 'aria-current': 'page' }}>
                        {l.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
          <div className="me">
            <span>{me?.email ?? me?.phone}</span>
            <span>{store.session?.tenant}</span>
            <button type="button" className="link" onClick={signOut}>
              Sign out
            </button>
          </div>
        </nav>
        <main id="main" tabIndex={-1}>
          {user.isPending ? <Loading what="Loading your account" /> : <Outlet />}
        </main>
      </div>
    </Permissions.Provider>
  );
}
