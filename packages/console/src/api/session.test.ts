import { describe, expect, it } from 'vitest';
import { authHeaders, needsRefresh, parseEnvironment, parseSession, refusesEnvironment, sessionOf, SessionStore } from './session';

const answer = { access_token: 'eyJ.a.b', refresh_token: 'r1', expires_at: 2_000, user: { id: 'usr_1', email: 'a@b.test', phone: null } };

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
}

describe('the console session', () => {
  it('keeps a verify answer with its tenant, and reads back only a well-formed one', () => {
    const s = sessionOf('acme', answer);
    expect(s).toEqual({ accessToken: 'eyJ.a.b', refreshToken: 'r1', expiresAt: 2_000, tenant: 'acme', user: { id: 'usr_1', email: 'a@b.test', phone: null } });
    expect(parseSession(JSON.stringify(s))).toEqual(s);
    expect(parseSession(null)).toBeNull();
    expect(parseSession('{')).toBeNull();
    expect(parseSession(JSON.stringify({ ...s, expiresAt: 'soon' }))).toBeNull();
  });

  it('refreshes a minute before the token expires', () => {
    const s = sessionOf('acme', answer);
    expect(needsRefresh(s, 1_900)).toBe(false);
    expect(needsRefresh(s, 1_941)).toBe(true);
  });

  it('sends the token, the tenant and the environment', () => {
    expect(authHeaders(sessionOf('acme', answer), 'live')).toEqual({ authorization: 'Bearer eyJ.a.b', 'x-tenant-code': 'acme', 'svc-environment': 'live' });
  });

  it("leaves the environment out for an organization's member, once the API has refused it", () => {
    const refusal = { error: { code: 'missing_permission', details: { required_permission: 'tenant_staff' } } };
    expect(refusesEnvironment(403, refusal)).toBe(true);
    expect(refusesEnvironment(403, { error: { code: 'missing_permission', details: { required_permission: 'events:write' } } })).toBe(false);
    expect(refusesEnvironment(401, refusal)).toBe(false);
    expect(refusesEnvironment(403, null)).toBe(false);
    expect(authHeaders({ ...sessionOf('acme', answer), ownEnvironment: true }, 'test')).toEqual({ authorization: 'Bearer eyJ.a.b', 'x-tenant-code': 'acme' });
  });

  it('starts in test data, and tells listeners of each change', () => {
    const store = new SessionStore(memoryStorage());
    let changes = 0;
    store.subscribe(() => changes++);
    expect(store.environment).toBe('test');
    store.environment = 'live';
    store.session = sessionOf('acme', answer);
    expect(store.environment).toBe('live');
    expect(store.session?.tenant).toBe('acme');
    store.session = null;
    expect(store.session).toBeNull();
    expect(changes).toBe(3);
    expect(parseEnvironment('staging')).toBe('test');
  });
});
