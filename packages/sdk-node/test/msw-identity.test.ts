import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Svc } from '../src';
import { createSvcMock } from '../src/msw';

const mock = createSvcMock({ baseUrl: 'https://api.svc.test' });
const server = setupServer(...mock.handlers);
const svc = new Svc({ apiKey: `sk_test_${'m'.repeat(24)}`, baseUrl: 'https://api.svc.test', maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('msw mocks of the identity routes', () => {
  it('keep customers, organizations and members', async () => {
    const customer = await svc.customers.create({ external_id: 'crm-1', email: 'a@example.test' });
    expect(customer.id).toMatch(/^cus_/);
    expect((await svc.customers.retrieve({ id: customer.id })).external_id).toBe('crm-1');
    const org = await svc.organizations.create({ name: 'KICC', handle: 'kicc', kind: 'venue' });
    expect(org.id).toMatch(/^org_/);
    const member = await svc.organizations.createStaffMember({ email: 'ops@example.test', role: 'admin' });
    expect(member.id).toMatch(/^mem_/);
    const page = await svc.organizations.listStaffMembers();
    expect(page.data.map((m) => m.id)).toEqual([member.id]);
  });

  it('answer the messages and identity settings routes with their shapes', async () => {
    const list = await svc.identity.messages.list({ limit: 5 });
    expect(Array.isArray(list.data)).toBe(true);
    const settings = await svc.identity.settings.updateSettings({ redirect_urls: ['https://a.example.test/'] });
    expect(settings.object).toBe('identity_settings');
  });
});
