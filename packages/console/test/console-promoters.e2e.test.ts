import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, shoot } from './kit/browser';
import { nav, startConsole, type ConsoleRun } from './kit/console';

/**
 * The Promoters screens against the real server: the owner invites a promoter, assigns them to an event with a
 * commission, gives them a tracking code; a buyer books with it; the owner sees the entry in the ledger, pays it out,
 * and ranks promoters on the leaderboard with its CSV; a viewer sees the same screens without their actions.
 */
let run: ConsoleRun;
let page: Page;
const stamp = Date.now();
const owner = `owner-${stamp}@example.test`;
const viewer = `viewer-${stamp}@example.test`;
const state: { org?: string; event?: string; ticketType?: string; promoter?: string } = {};

const http = () => run.http;
const sk = () => run.sk();
const row = (p: Page, text: string) => p.getByRole('row').filter({ hasText: text });

/** A buyer books one ticket with the promoter's code and pays with the simulator's card. */
async function bookWithCode(ref: string) {
  const booked = await http().ok('POST', `/v1/events/${state.event}/book`, run.pk(), {
    ticket_id: state.ticketType,
    quantity: 1,
    buyer_name: 'Achieng O',
    buyer_email: 'achieng@example.test',
    attendees: [{ first_name: 'Achieng', last_name: 'O' }],
    ref,
  });
  const session = new URL(booked.payment).pathname.split('/').at(-1);
  await http().ok('POST', `/v1/checkout/sessions/${session}/pay`, {}, { method: 'card', card_number: '4242424242424242' });
  return booked.booking as { id: string; code: string };
}

beforeAll(async () => {
  run = await startConsole('Acme Promoters', { [owner]: 'owner', [viewer]: 'viewer' }, { SVC_RATE_LIMIT_PUBLIC: '10000' });
  ({ organization: state.org, event: state.event, ticketType: state.ticketType } = await run.publishedEvent());
  page = await run.newPage();
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe('the console: promoters', () => {
  it('signs the owner in', async () => {
    await run.signIn(page, owner);
  });

  it('says what to do while there are no promoters, then invites one', async () => {
    await nav(page, 'Promoters').click();
    await page.getByRole('heading', { name: 'No promoters yet' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Invite promoter' }).click();
    const form = page.getByRole('form', { name: 'Invite a promoter' });
    await form.getByLabel('Promoter name').fill('Amina');
    await form.getByLabel(/^Email/).fill(`amina-${stamp}@example.test`);
    await form.getByLabel(/^Phone/).fill('+254712345678');
    await form.getByRole('button', { name: 'Invite promoter' }).click();
    await page.getByRole('heading', { name: 'Amina', level: 1 }).waitFor();
    state.promoter = new URL(page.url()).pathname.split('/').at(-1);
    expect(state.promoter).toMatch(/^prm_/);
    await page.getByRole('heading', { name: 'Not assigned yet' }).waitFor();
  });

  it('assigns the promoter to the event with a commission, pauses and resumes it', async () => {
    const form = page.getByRole('form', { name: 'New assignment' });
    await form.getByLabel('Sells').selectOption({ label: 'Friday show' });
    await form.getByLabel('Percent', { exact: true }).fill('0');
    await form.getByRole('button', { name: 'Assign' }).click();
    await form.getByRole('alert').filter({ hasText: 'percent above 0' }).waitFor();
    await form.getByLabel('Percent', { exact: true }).fill('10');
    await form.getByRole('button', { name: 'Assign' }).click();
    const assigned = row(page, 'Friday show');
    await assigned.getByText('10% of net').waitFor();
    await assigned.getByRole('button', { name: 'Pause Friday show' }).click();
    await assigned.getByText('paused').waitFor();
    await assigned.getByRole('button', { name: 'Resume Friday show' }).click();
    await assigned.getByText('active', { exact: true }).waitFor();
    const [assignment] = await http().ok('GET', `/v1/promoters/${state.promoter}/assignments`, sk());
    expect(assignment).toMatchObject({ target: { type: 'event', id: state.event }, commission: { type: 'percent', basis_points: 1000 }, active: true });
  });

  it('gives a tracking code, refuses a taken one, and switches a code off and on', async () => {
    const form = page.getByRole('form', { name: 'New tracking code' });
    await form.getByLabel('Code').fill('AMINA10');
    await form.getByRole('button', { name: 'Add code' }).click();
    const code = row(page, 'AMINA10');
    await code.waitFor();
    await form.getByLabel('Code').fill('amina10');
    await form.getByRole('button', { name: 'Add code' }).click();
    await form.getByRole('alert').filter({ hasText: 'tracking_code_taken' }).waitFor();
    await code.getByRole('button', { name: 'Switch off AMINA10' }).click();
    await code.getByText('paused').waitFor();
    await code.getByRole('button', { name: 'Switch on AMINA10' }).click();
    await code.getByText('active', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-promoter');
  });

  it('shows the commission of a booking made with the code in the ledger, approved, then pays it out', async () => {
    const order = await bookWithCode('AMINA10');
    const [entry] = await http().ok('GET', `/v1/commissions?promoter=${state.promoter}`, sk());
    expect(entry).toMatchObject({ order: order.id, amount: 15_000, status: 'pending' });

    await nav(page, 'Commission ledger').click();
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=pending/);
    await row(page, order.id).getByText('KES 150.00').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-commissions');

    await http().ok('POST', `/v1/test_helpers/commissions/${entry.id}/approve`, sk());
    await page.getByLabel('Status').selectOption('approved');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=approved/);
    await row(page, order.id).getByText('approved').waitFor();
    await page.goBack();
    await page.waitForURL(/status=pending/);
    await expect(page.getByLabel('Status').inputValue()).resolves.toBe('pending');

    await page.goto(`${run.server.url}/console/promoters/promoters/${state.promoter}`);
    const payout = page.getByRole('form', { name: 'New payout' });
    await payout.getByLabel(/^Reference/).fill('EQUITY-7781');
    await payout.getByRole('button', { name: 'Pay out approved balance' }).click();
    const paid = row(page, 'EQUITY-7781');
    await paid.getByText('paid', { exact: true }).waitFor();
    await paid.getByText('KES 150.00').waitFor();
    // Nothing left to pay: the API's 409 shows beside the form.
    await payout.getByLabel(/^Reference/).fill('EQUITY-7782');
    await payout.getByRole('button', { name: 'Pay out approved balance' }).click();
    await payout.getByRole('alert').filter({ hasText: 'no_payable_commissions' }).waitFor();
    expect(await http().ok('GET', `/v1/payouts?promoter=${state.promoter}`, sk())).toMatchObject([{ amount: 15_000, method: 'manual', status: 'paid', reference: 'EQUITY-7781' }]);

    await nav(page, 'Payouts').click();
    await page.getByLabel('Status').selectOption('paid');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=paid/);
    await row(page, 'EQUITY-7781').getByRole('link', { name: 'Amina' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-payouts');
  });

  it('ranks promoters on the leaderboard and exports it as CSV', async () => {
    await nav(page, 'Leaderboard').click();
    const first = row(page, 'Amina');
    await first.getByText('KES 1,500.00').waitFor();
    await first.getByRole('cell', { name: '1', exact: true }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-leaderboard');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('promoters-report.csv');
    expect(readFileSync((await csv.path())!, 'utf8')).toContain('Amina');

    // A period with no sales: the leaderboard is empty, and says so.
    await page.getByLabel('To').fill('2020-01-31');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/to=2020-01-31/);
    await page.getByRole('heading', { name: 'No sales by promoters yet' }).waitFor();
  });

  it('shows a viewer the promoters screens without their actions', async () => {
    const p = await run.newPage();
    try {
      await run.signIn(p, viewer);
      await nav(p, 'Promoters').click();
      expect(await p.getByRole('button', { name: 'Invite promoter' }).count()).toBe(0);
      await p.getByRole('link', { name: 'Amina' }).click();
      await row(p, 'AMINA10').waitFor();
      await row(p, 'EQUITY-7781').waitFor();
      for (const name of ['Disable', 'Assign', 'Add code', 'Pay out approved balance', 'Pause Friday show', 'Switch off AMINA10']) expect(await p.getByRole('button', { name }).count(), name).toBe(0);
    } finally {
      await p.context().close();
    }
  });

  it('shows the promoters screens at phone width without a CSP violation', async () => {
    await run.phoneScreens(page, [
      ['/console/promoters/promoters', 'phone-promoters'],
      [`/console/promoters/promoters/${state.promoter}`, 'phone-promoter'],
      ['/console/promoters/commissions', 'phone-commissions'],
      ['/console/promoters/payouts', 'phone-payouts'],
      ['/console/promoters/leaderboard', 'phone-leaderboard'],
    ]);
  });
});
