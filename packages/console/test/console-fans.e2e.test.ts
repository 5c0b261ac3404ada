import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './kit/api';
import { seriousViolations, shoot } from './kit/browser';
import { nav, startConsole, type ConsoleRun } from './kit/console';

/**
 * The Fans screens against the real server: the owner creates a fanbase and its tiers (free, paid, one archived),
 * finds members by search and filters, exports them as CSV, and cancels and resumes a subscription; a viewer sees
 * the same screens without their actions.
 */
let run: ConsoleRun;
let page: Page;
const stamp = Date.now();
const owner = `owner-${stamp}@example.test`;
const viewer = `viewer-${stamp}@example.test`;
const state: { org?: string; fanbase?: string; subscription?: string } = {};

const http = () => run.http;
const sk = () => run.sk();
const row = (p: Page, text: string) => p.getByRole('row').filter({ hasText: text });

/** A fan signs in with a phone code (test mode captures it) and subscribes to the tier, paying with the simulator's card. */
async function subscribe(tier: string) {
  const phone = `+2547${String(Date.now()).slice(-8)}`;
  await http().ok('POST', '/auth/v1/otp', run.pk(), { phone });
  const messages = await http().ok('GET', `/v1/messages?to=${encodeURIComponent(phone)}&limit=1`, sk());
  const code = /\b(\d{6})\b/.exec(JSON.stringify(messages[0]))![1];
  const token = (await http().ok('POST', '/auth/v1/verify', run.pk(), { phone, code })).access_token;
  const sub = await http().ok('POST', `/v1/public/fanbases/${state.fanbase}/subscriptions`, { ...bearer(token), 'idempotency-key': `sub-${stamp}` }, { tier });
  const session = sub.checkout_url.slice(sub.checkout_url.lastIndexOf('/') + 1);
  await http().ok('POST', `/v1/checkout/sessions/${session}/pay`, {}, { method: 'card', card_number: '4242424242424242' });
  return sub.id as string;
}

beforeAll(async () => {
  run = await startConsole('Acme Fans', { [owner]: 'owner', [viewer]: 'viewer' }, { SVC_RATE_LIMIT_PUBLIC: '10000' });
  state.org = (await http().ok('POST', '/v1/organizations', sk(), { name: 'Nyashinski', handle: 'nyashinski', kind: 'brand' })).id;
  page = await run.newPage();
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe('the console: fans', () => {
  it('signs the owner in', async () => {
    await run.signIn(page, owner);
  });

  it('says what to do while there is no fanbase, then creates one', async () => {
    await nav(page, 'Fanbases').click();
    await page.getByRole('heading', { name: 'No fanbases yet' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'New fanbase' }).click();
    const form = page.getByRole('form', { name: 'New fanbase' });
    await form.getByLabel('Fanbase name').fill('Nyashinski Fam');
    await form.getByLabel('Grace days').fill('5');
    await form.getByRole('button', { name: 'Create fanbase' }).click();
    await page.getByRole('heading', { name: 'Nyashinski Fam', level: 1 }).waitFor();
    state.fanbase = new URL(page.url()).pathname.split('/').at(-1);
    expect(state.fanbase).toMatch(/^fan_/);
    await page.getByRole('heading', { name: 'No tiers yet' }).waitFor();
    const made = await http().ok('GET', `/v1/fanbases/${state.fanbase}`, sk());
    expect(made).toMatchObject({ organization: state.org, name: 'Nyashinski Fam', grace_period_days: 5, renewal_notice_hours: 24, status: 'active' });
  });

  it('creates a free tier and a paid tier, refuses a paid tier without an interval, edits and archives', async () => {
    const newTier = async (fill: (f: ReturnType<Page['getByRole']>) => Promise<void>) => {
      await page.getByRole('button', { name: 'New tier', exact: true }).click();
      const form = page.getByRole('form', { name: 'New tier' });
      await fill(form);
      await form.getByRole('button', { name: 'Create tier' }).click();
      return form;
    };
    let form = await newTier(async (f) => {
      await f.getByLabel('Tier name').fill('Fans');
      await f.getByLabel('Tier status').selectOption('published');
    });
    await form.waitFor({ state: 'detached' });
    await row(page, 'Fans').getByText('Free').waitFor();

    form = await newTier(async (f) => {
      await f.getByLabel('Tier name').fill('Gold');
      await f.getByLabel('Price (KES)').fill('500');
      await f.getByLabel('Benefits').fill('Every live show\nBackstage clips');
    });
    // The form says what is wrong before anything is sent.
    await form.getByRole('alert').filter({ hasText: 'choose its interval' }).waitFor();
    await form.getByLabel('Interval').selectOption('month');
    await form.getByLabel('Tier status').selectOption('published');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create tier' }).click();
    await form.waitFor({ state: 'detached' });
    await row(page, 'Gold').getByText('KES 500.00 a month').waitFor();

    // A second published free tier: the API's 409 shows beside the form.
    form = await newTier(async (f) => {
      await f.getByLabel('Tier name').fill('Also free');
      await f.getByLabel('Tier status').selectOption('published');
    });
    await form.getByRole('alert').filter({ hasText: 'free_tier_exists' }).waitFor();
    await form.getByLabel('Tier status').selectOption('draft');
    await form.getByRole('button', { name: 'Create tier' }).click();
    await form.waitFor({ state: 'detached' });

    await row(page, 'Gold').getByRole('button', { name: 'Edit tier Gold' }).click();
    const edit = page.getByRole('form', { name: 'Edit tier Gold' });
    await edit.getByLabel('Price (KES)').fill('650');
    await edit.getByRole('button', { name: 'Save tier' }).click();
    await edit.waitFor({ state: 'detached' });
    await row(page, 'Gold').getByText('KES 650.00 a month').waitFor();

    page.once('dialog', (d) => void d.accept());
    await row(page, 'Also free').getByRole('button', { name: 'Archive tier Also free' }).click();
    await row(page, 'Also free').getByText('archived', { exact: true }).waitFor();
    await shoot(page, 'desktop-fanbase');

    const tiers = await http().ok('GET', `/v1/fanbases/${state.fanbase}/tiers?limit=10`, sk());
    expect(Object.fromEntries(tiers.map((t: { name: string; price: number; status: string; interval: string | null }) => [t.name, [t.price, t.interval, t.status]]))).toEqual({
      Fans: [0, null, 'published'],
      Gold: [65_000, 'month', 'published'],
      'Also free': [0, null, 'archived'],
    });
    expect(tiers.find((t: { name: string }) => t.name === 'Gold').benefits).toEqual(['Every live show', 'Backstage clips']);
  });

  it('finds members by search and filters in the URL, goes back, and exports the CSV', async () => {
    const tiers = await http().ok('GET', `/v1/fanbases/${state.fanbase}/tiers?limit=10`, sk());
    const gold = tiers.find((t: { name: string }) => t.name === 'Gold').id;
    for (const [name, email] of [
      ['Achieng Otieno', 'achieng@example.test'],
      ['Brian Kamau', 'brian@example.test'],
    ]) {
      const customer = await http().ok('POST', '/v1/customers', sk(), { name, email });
      await http().ok('POST', `/v1/fanbases/${state.fanbase}/members`, sk(), { customer: customer.id, ...(name.startsWith('Brian') ? { tier: gold } : {}) });
    }
    state.subscription = await subscribe(gold);

    await page.reload();
    await page.getByRole('link', { name: '3 members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await row(page, 'Achieng Otieno').waitFor();
    await row(page, 'Brian Kamau').getByText('Gold').waitFor();
    expect(await page.getByRole('row').count()).toBe(4);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-members');

    await page.getByLabel('Search').fill('achieng');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/search=achieng/);
    await row(page, 'Brian Kamau').waitFor({ state: 'detached' });
    await row(page, 'Achieng Otieno').waitFor();

    await page.getByLabel('Search').fill('');
    await page.getByLabel('Source').selectOption('subscription');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/source=subscription/);
    await row(page, 'Achieng Otieno').waitFor({ state: 'detached' });
    await row(page, state.subscription!).getByText('Gold').waitFor();
    expect(await page.getByRole('row').count()).toBe(2);

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('members.csv');
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text.split('\n')[0]).toContain('membership_id');
    expect(text).toContain('subscription');
    expect(text).not.toContain('achieng@example.test');

    await page.goBack();
    await page.waitForURL((u) => u.search.includes('search=achieng') && !u.search.includes('source='));
    await row(page, 'Achieng Otieno').waitFor();
  });

  it('cancels a subscription at the period end and resumes it', async () => {
    await nav(page, 'Subscriptions').click();
    await page.getByLabel('Fanbase').selectOption(state.fanbase!);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/fanbase=fan_/);
    const sub = row(page, state.subscription!);
    await sub.getByText('KES 650.00 a month').waitFor();
    await sub.getByText('active', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-subscriptions');

    page.once('dialog', (d) => void d.accept());
    await sub.getByRole('button', { name: `Cancel at period end ${state.subscription}` }).click();
    await sub.getByText('Ends at the period end').waitFor();
    expect(await http().ok('GET', `/v1/subscriptions/${state.subscription}`, sk())).toMatchObject({ status: 'active', cancel_at_period_end: true });
    await sub.getByRole('button', { name: `Resume ${state.subscription}` }).click();
    await sub.getByText('Ends at the period end').waitFor({ state: 'detached' });
    expect(await http().ok('GET', `/v1/subscriptions/${state.subscription}`, sk())).toMatchObject({ status: 'active', cancel_at_period_end: false });
  });

  it('shows a viewer the fans screens without their actions', async () => {
    const p = await run.newPage();
    try {
      await run.signIn(p, viewer);
      await nav(p, 'Fanbases').click();
      await p.getByRole('link', { name: 'Nyashinski Fam' }).click();
      await row(p, 'Gold').waitFor();
      for (const name of ['New tier', 'Archive', 'Save details', 'Edit tier Gold']) expect(await p.getByRole('button', { name }).count(), name).toBe(0);
      await p.getByRole('link', { name: '3 members' }).click();
      await row(p, 'Brian Kamau').waitFor();
      expect(await p.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      await nav(p, 'Subscriptions').click();
      await row(p, state.subscription!).waitFor();
      expect(await p.getByRole('button', { name: /Cancel at period end/ }).count()).toBe(0);
    } finally {
      await p.context().close();
    }
  });

  it('shows the fans screens at phone width without a CSP violation', async () => {
    await run.phoneScreens(page, [
      ['/console/fans/fanbases', 'phone-fanbases'],
      [`/console/fans/fanbases/${state.fanbase}`, 'phone-fanbase'],
      [`/console/fans/fanbases/${state.fanbase}/members`, 'phone-members'],
      ['/console/fans/subscriptions', 'phone-subscriptions'],
    ]);
  });
});
