/** A member's sign-in, kept in the browser between visits. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Unix seconds. */
  expiresAt: number;
  /** The tenant's code, sent as `X-Tenant-Code` with every call. */
  tenant: string;
  user: { id: string; email: string | null; phone: string | null };
  /**
   * An organization's member (not tenant staff): the API refuses them `Svc-Environment`, so calls leave it out and
   * are answered in the environment of the sign-in. Learnt from the first refusal.
   */
  ownEnvironment?: boolean;
}

export type Environment = 'test' | 'live';

const SESSION_KEY = 'svc.console.session';
const ENVIRONMENT_KEY = 'svc.console.environment';

/** Reads a kept session; anything malformed counts as signed out. */
export function parseSession(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Partial<Session>;
    if (typeof s.accessToken !== 'string' || typeof s.refreshToken !== 'string' || typeof s.expiresAt !== 'number' || typeof s.tenant !== 'string') return null;
    return s as Session;
  } catch {
    return null;
  }
}

/** The session from a verify or refresh answer (`/auth/v1/verify`, `/auth/v1/token`). */
export function sessionOf(
  tenant: string,
  body: { access_token: string; refresh_token: string; expires_at: number; user: { id: string; email: string | null; phone: string | null } },
): Session {
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: body.expires_at,
    tenant,
    user: { id: body.user.id, email: body.user.email, phone: body.user.phone },
  };
}

/** Refresh a minute early, so no call is sent with a token that expires on the way. */
export const needsRefresh = (s: Session, nowSeconds = Date.now() / 1000) => s.expiresAt - nowSeconds < 60;

/** The headers every API call of a signed-in member carries. */
export function authHeaders(s: Session, environment: Environment): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${s.accessToken}`, 'x-tenant-code': s.tenant };
  if (!s.ownEnvironment) headers['svc-environment'] = environment;
  return headers;
}

/** The API's refusal of `Svc-Environment` to a member who is not tenant staff. */
export function refusesEnvironment(status: number, body: unknown): boolean {
  const details = (body as { error?: { details?: { required_permission?: unknown } | null } } | null)?.error?.details;
  return status === 403 && details?.required_permission === 'tenant_staff';
}

export const parseEnvironment = (raw: string | null): Environment => (raw === 'live' ? 'live' : 'test');

type Listener = () => void;

/** The session and environment, kept in localStorage and shared by every tab's next read. */
export class SessionStore {
  private listeners = new Set<Listener>();
  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {}

  get session(): Session | null {
    return parseSession(this.storage.getItem(SESSION_KEY));
  }
  set session(s: Session | null) {
    if (s) this.storage.setItem(SESSION_KEY, JSON.stringify(s));
    else this.storage.removeItem(SESSION_KEY);
    this.emit();
  }
  get environment(): Environment {
    return parseEnvironment(this.storage.getItem(ENVIRONMENT_KEY));
  }
  set environment(e: Environment) {
    this.storage.setItem(ENVIRONMENT_KEY, e);
    this.emit();
  }
  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  private emit() {
    for (const l of this.listeners) l();
  }
}
