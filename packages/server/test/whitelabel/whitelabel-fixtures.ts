import type { DomainProbe } from '../../src/core/branding';
import { bearer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

export const sk = (tenant: Tenant) => bearer(tenant.keys.test.secret);
export const liveSk = (tenant: Tenant) => bearer(tenant.keys.live.secret);
export const pk = (tenant: Tenant) => ({ 'Svc-Publishable-Key': tenant.keys.test.publishable });

/** A restricted key of the test environment with these scopes. */
export async function restrictedKey(t: TestServer, tenant: Tenant, scopes: string[]) {
  const key = expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes }), 201).data;
  return bearer(key.secret as string);
}

export async function organization(t: TestServer, tenant: Tenant, handle: string, name = 'Sauti Sol', auth = sk(tenant)) {
  return expectStatus(await t.http().post('/v1/organizations').set(auth).send({ name, handle, kind: 'creator' }), 201).data as { id: string };
}

/**
 * DNS and HTTPS of custom domains as the tests set them: TXT records by name, and what each host's check path
 * answers. Nothing leaves the machine.
 */
export class FakeProbe implements DomainProbe {
  readonly txt = new Map<string, string[]>();
  readonly routes = new Map<string, string>();
  async resolveTxt(name: string) {
    return (this.txt.get(name) ?? []).map((v) => [v]);
  }
  async fetchCheck(hostname: string) {
    return this.routes.get(hostname) ?? null;
  }
}
