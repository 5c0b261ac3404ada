import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './kit/api';
import { seriousViolations, shoot } from './kit/browser';
import { nav, startConsole, type ConsoleRun } from './kit/console';

/**
 * Comp members, subscribers by name and the promoter settings against the real server: the owner finds a customer by
 * email and adds them as a comp member of a tier, sees a subscriber's name and phone in the subscriptions list, and
 * changes the promoter settings; a viewer sees the same screens without their actions.
 */
let run: ConsoleRun;
let page: Page;
const stamp = Date.now();
const owner = `owner-${stamp}@example.test`;
const viewer = `viewer-${stamp}@example.test`;
const manager = `manager-${stamp}@example.test`;
const state: { liveFanbase?: string; fanbase?: string; gold?: string; customer?: string; subscription?: string; phone?: string } = {};

const http = () => run.http;
const sk = () => run.sk();
const row = (p: Page, text: string) => p.getByRole('row').filter({ hasText: text });

/** A fan signs in with a phone code (test mode captures it), is named, and subscribes to the tier, paying with the simulator's card. */
async function subscribe(tier: string) {
  const phone = `+2547${String(Date.now()).slice(-8)}`;
  await http().ok('POST', '/auth/v1/otp', run.pk(), { phone });
  const messages = await http().ok('GET', `/v1/messages?to=${encodeURIComponent(phone)}&limit=1`, sk());
  const code = /\b(\d{6})\b/.exec(JSON.stringify(messages[0]))![1];
  const verified = await http().ok('POST', '/auth/v1/verify', run.pk(), { phone, code });
  await http().ok('PATCH', `/v1/customers/${verified.user.customer}`, sk(), { name: 'Wanjiru Kamau' });
  const sub = await http().ok('POST', `/v1/public/fanbases/${state.fanbase}/subscriptions`, { ...bearer(verified.access_token), 'idempotency-key': `sub-${stamp}` }, { tier });
  const session = sub.checkout_url.slice(sub.checkout_url.lastIndexOf('/') + 1);
  await http().ok('POST', `/v1/checkout/sessions/${session}/pay`, {}, { method: 'card', card_number: '4242424242424242' });
  return { subscription: sub.id as string, phone };
}

beforeAll(async () => {
  run = await startConsole('Acme Comps', { [owner]: 'owner', [viewer]: 'viewer' }, { SVC_RATE_LIMIT_PUBLIC: '10000' });
  const org = await http().ok('POST', '/v1/organizations', sk(), { name: 'Sauti Sol', handle: 'sauti_sol', kind: 'brand' });
  // An organization's members work in the environment of their sign-in: the console's is live.
  const live = bearer(run.tenant.keys.live.secret);
  const liveOrg = await http().ok('POST', '/v1/organizations', live, { name: 'Bien', handle: 'bien_live', kind: 'brand' });
  await http().ok('POST', `/v1/organizations/${liveOrg.id}/members`, live, { email: manager, role: 'manager' });
  state.liveFanbase = (await http().ok('POST', '/v1/fanbases', live, { organization: liveOrg.id, name: 'Bien Fam' })).id;
  state.fanbase = (await http().ok('POST', '/v1/fanbases', sk(), { organization: org.id, name: 'Sauti Sol Fam' })).id;
  state.gold = (await http().ok('POST', `/v1/fanbases/${state.fanbase}/tiers`, sk(), { name: 'Gold', price: 50_000, interval: 'month', status: 'published' })).id;
  state.customer = (await http().ok('POST', '/v1/customers', sk(), { name: 'Achieng Otieno', email: 'achieng@example.test' })).id;
  ({ subscription: state.subscription, phone: state.phone } = await subscribe(state.gold!));
  page = await run.newPage();
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe('the console: comp members, subscribers and promoter settings', () => {
  it('signs the owner in', async () => {
    await run.signIn(page, owner);
  });

  it('finds a customer by email and adds them as a comp member of a tier', async () => {
    await page.goto(`${run.server.url}/console/fans/fanbases/${state.fanbase}/members`);
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add comp member' }).click();
    const form = page.getByRole('form', { name: 'Add a comp member' });

    // A lookup that is neither an email, a phone with its country code nor an id is refused before anything is sent.
    await form.getByLabel('Customer').fill('0712345678');
    await form.getByRole('button', { name: 'Find customer' }).click();
    await form.getByRole('alert').filter({ hasText: 'country code' }).waitFor();
    await form.getByLabel('Customer').fill('nobody@example.test');
    await form.getByRole('button', { name: 'Find customer' }).click();
    await form.getByText('No customer has this email').waitFor();
    expect(await form.getByRole('button', { name: 'Add member' }).isDisabled()).toBe(true);

    await form.getByLabel('Customer').fill('Achieng@example.test');
    await form.getByRole('button', { name: 'Find customer' }).click();
    await form.getByText('Found: Achieng Otieno · achieng@example.test').waitFor();
    await form.getByLabel('Comp tier').selectOption(state.gold!);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-add-comp-member');
    await form.getByRole('button', { name: 'Add member' }).click();
    await form.waitFor({ state: 'detached' });

    const added = row(page, 'Achieng Otieno');
    await added.getByText('comp', { exact: true }).waitFor();
    await added.getByText('Gold').waitFor();
    const comps = await http().ok('GET', `/v1/fanbases/${state.fanbase}/members?source=comp`, sk());
    expect(comps).toHaveLength(1);
    expect(comps[0]).toMatchObject({ customer: state.customer, source: 'comp', tier: state.gold, status: 'active', ends_at: null });
  });

  it('shows each subscription with its customer', async () => {
    await nav(page, 'Subscriptions').click();
    const sub = row(page, state.subscription!);
    await sub.getByText('Wanjiru Kamau').waitFor();
    await sub.getByText(state.phone!).waitFor();
    await sub.getByText('KES 500.00 a month').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-subscriptions-customers');
  });

  it('shows the promoter settings and changes them', async () => {
    await nav(page, 'Promoter settings').click();
    await page.getByRole('heading', { name: 'Promoter settings', level: 1 }).waitFor();
    await page.getByText('Never: these are the defaults').waitFor();
    const form = page.getByRole('form', { name: 'Attribution and approval' });
    expect(await form.getByLabel('Attribution window (days)').inputValue()).toBe('30');
    expect(await form.getByLabel('Refund window (days)').inputValue()).toBe('7');

    await form.getByLabel('Attribution window (days)').fill('14');
    await form.getByLabel('Refund window (days)').fill('3');
    await form.getByLabel('Link template').fill('https://tickets.example.com/e/{event}');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByRole('alert').filter({ hasText: '{code}' }).waitFor();
    await form.getByLabel('Link template').fill('https://tickets.example.com/e/{event}?ref={code}');
    await form.getByLabel('Self-referral').selectOption('allow');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('14 days').waitFor();
    await page.getByText('Allowed: a promoter earns on their own purchases').waitFor();
    await shoot(page, 'desktop-promoter-settings');
    expect(await http().ok('GET', '/v1/promoters/settings', sk())).toMatchObject({
      attribution_window_days: 14,
      refund_window_days: 3,
      link_template: 'https://tickets.example.com/e/{event}?ref={code}',
      self_referral: 'allow',
    });
  });

  it('shows a viewer the same screens without their actions', async () => {
    const p = await run.newPage();
    try {
      await run.signIn(p, viewer);
      await p.goto(`${run.server.url}/console/fans/fanbases/${state.fanbase}/members`);
      await row(p, 'Achieng Otieno').waitFor();
      expect(await p.getByRole('button', { name: 'Add comp member' }).count()).toBe(0);
      await nav(p, 'Subscriptions').click();
      await row(p, state.subscription!).getByText('Wanjiru Kamau').waitFor();
      await nav(p, 'Promoter settings').click();
      await p.getByText('14 days').waitFor();
      await p.getByText('Changing these needs a tenant role').waitFor();
      expect(await p.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    } finally {
      await p.context().close();
    }
  });

  it("lets an organization's manager add a comp member by id (their role reads no customers) and read the promoter settings without changing them", async () => {
    const other = (await http().ok('POST', '/v1/customers', bearer(run.tenant.keys.live.secret), { name: 'Baraka Mwangi', phone: '+254700000123' })).id;
    const p = await run.newPage();
    try {
      await run.signIn(p, manager);
      await nav(p, 'Fanbases').click();
      await p.getByRole('button', { name: 'Live data', pressed: true }).waitFor();
      await p.getByRole('link', { name: 'Bien Fam' }).click();
      await p.getByRole('link', { name: '0 members' }).click();
      await p.getByRole('heading', { name: 'No members yet' }).waitFor();
      await p.getByRole('button', { name: 'Add comp member' }).click();
      const form = p.getByRole('form', { name: 'Add a comp member' });
      await form.getByLabel('Customer').fill('+254700000123');
      await form.getByRole('button', { name: 'Find customer' }).click();
      await form.getByRole('alert').filter({ hasText: 'cannot look customers up' }).waitFor();
      await form.getByLabel('Customer').fill(other);
      await form.getByRole('button', { name: 'Find customer' }).click();
      await form.getByRole('button', { name: 'Add member' }).click();
      await form.waitFor({ state: 'detached' });
      await row(p, 'Baraka Mwangi').getByText('comp', { exact: true }).waitFor();
      const comps = await http().ok('GET', `/v1/fanbases/${state.liveFanbase}/members?source=comp`, bearer(run.tenant.keys.live.secret));
      expect(comps.map((m: { customer: string }) => m.customer)).toEqual([other]);

      await nav(p, 'Promoter settings').click();
      await p.getByText('30 days').waitFor();
      await p.getByText('Changing these needs a tenant role').waitFor();
      expect(await p.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    } finally {
      await p.context().close();
    }
  });

  it('shows the screens at phone width without a CSP violation', async () => {
    await run.phoneScreens(page, [
      [`/console/fans/fanbases/${state.fanbase}/members`, 'phone-members-comp'],
      ['/console/fans/subscriptions', 'phone-subscriptions-customers'],
      ['/console/promoters/settings', 'phone-promoter-settings'],
    ]);
  });
});
