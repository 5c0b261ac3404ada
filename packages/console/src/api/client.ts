import { contract } from '@svc/contract';
import { tsRestFetchApi, type ApiFetcherArgs } from '@ts-rest/core';
import { initTsrReactQuery } from '@ts-rest/react-query/v5';
import { authHeaders, needsRefresh, refusesEnvironment, sessionOf, SessionStore, type Session } from './session';

export const store = new SessionStore(window.localStorage);

let refreshing: Promise<Session | null> | null = null;

/** One refresh at a time; a refresh token is spent by its use, so parallel calls wait for the same one. */
async function refreshed(s: Session): Promise<Session | null> {
  refreshing ??= fetch('/auth/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: s.refreshToken }),
  })
    .then(async (res) => {
      if (!res.ok) return null;
      const next = { ...sessionOf(s.tenant, ((await res.json()) as { data: Parameters<typeof sessionOf>[1] }).data), ownEnvironment: s.ownEnvironment };
      store.session = next;
      return next;
    })
    .catch(() => s)
    .finally(() => (refreshing = null));
  return refreshing;
}

/** Every call: the member's token, the tenant and the environment; a refresh first when the token is about to expire. */
async function api(args: ApiFetcherArgs) {
  let session = store.session;
  if (session && needsRefresh(session)) {
    session = await refreshed(session);
    if (!session) store.session = null;
  }
  const headers = session ? { ...args.headers, ...authHeaders(session, store.environment) } : args.headers;
  const mutating = args.method !== 'GET';
  // Writes that the API takes only once carry an idempotency key; a retry by the person sends a new one.
  if (mutating && !headers['idempotency-key']) headers['idempotency-key'] = crypto.randomUUID();
  const res = await tsRestFetchApi({ ...args, headers });
  if (res.status === 401 && session) store.session = null;
  // An organization's member works in the environment of their sign-in: once refused, calls leave the header out.
  if (session && !session.ownEnvironment && refusesEnvironment(res.status, res.body)) {
    store.session = { ...session, ownEnvironment: true };
    return api(args);
  }
  return res;
}

export const tsr = initTsrReactQuery(contract, { baseUrl: '', baseHeaders: {}, api, throwOnUnknownStatus: false });
