import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, shoot } from './kit/browser';
import { nav as navLink, startConsole, type ConsoleRun } from './kit/console';

/**
 * The Shows screen for live streams and the Money screens for reconciliation, against the real server: the tenant's
 * server makes the stream, the event and the bookings (as it would through the API); the owner reviews them in the console.
 */
let run: ConsoleRun;
let page: Page;
const owner = `owner-${Date.now()}@example.test`;
const state: { stream?: { id: string; ingest: { stream_key: string }; playback_ids: { id: string }[] }; recording?: string; clip?: string; event?: string; ticketType?: string } = {};

const http = () => run.http;
const sk = () => run.sk();
const pk = () => run.pk();
const nav = (name: string) => navLink(page, name);

/** A booking whose payer never answers: its payment stays pending until the test helper settles it. */
async function pendingPayment() {
  const booked = await http().ok('POST', `/v1/events/${state.event}/book`, pk(), {
    ticket_id: state.ticketType,
    quantity: 1,
    buyer_name: 'Achieng O',
    buyer_email: 'achieng@example.test',
    attendees: [{ first_name: 'Achieng', last_name: 'O' }],
  });
  const session = new URL(booked.payment).pathname.split('/').at(-1);
  const paid = await http().ok('POST', `/v1/checkout/sessions/${session}/pay`, {}, { method: 'mobile_money', phone: '+254711000003' });
  return { order: booked.booking.id as string, payment: paid.payment.id as string };
}

beforeAll(async () => {
  run = await startConsole('Acme Live', { [owner]: 'owner' }, { SVC_RATE_LIMIT_PUBLIC: '10000' });

  // A stream that broadcast for a few seconds: its recording is ready, and a clip is cut from it.
  state.stream = await http().ok('POST', '/v1/streams/live_streams', sk(), { external_id: 'friday-show' });
  const simulate = (event: string) => http().ok('POST', `/v1/test_helpers/live_streams/${state.stream!.id}/simulate`, sk(), { event });
  await simulate('connected');
  await simulate('active');
  await new Promise((r) => setTimeout(r, 3_000));
  await simulate('disconnected');
  await simulate('idle');
  const [recording] = await http().ok('GET', `/v1/streams/assets?live_stream=${state.stream!.id}`, sk());
  state.recording = recording.id;
  state.clip = (await http().ok('POST', `/v1/streams/assets/${recording.id}/clips`, sk(), { start_time: 0, end_time: 2 })).id;

  // A published event with a priced ticket type, booked by the tenant's page.
  ({ event: state.event, ticketType: state.ticketType } = await run.publishedEvent());

  page = await run.newPage();
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe('the console: live streams and reconciliation', () => {
  it('signs the owner in', async () => {
    await run.signIn(page, owner);
  });

  it('lists live streams without their keys, reveals a key on request, previews, and shows recordings and clips', async () => {
    await nav('Live streams').click();
    const row = page.getByRole('row').filter({ hasText: 'friday-show' });
    await row.getByText('idle', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(state.stream!.ingest.stream_key);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-live-streams');

    await row.getByRole('link', { name: 'friday-show' }).click();
    await page.getByRole('heading', { name: 'friday-show', level: 1 }).waitFor();
    expect(await page.content()).not.toContain(state.stream!.ingest.stream_key);
    await page.getByRole('button', { name: 'Reveal stream key' }).click();
    await expect(page.getByTestId('stream-key').textContent()).resolves.toBe(state.stream!.ingest.stream_key);
    await page.getByRole('button', { name: 'Hide' }).click();
    await page.getByRole('button', { name: 'Reveal stream key' }).waitFor();

    await page.getByRole('row').filter({ hasText: state.recording! }).getByText('Recording').waitFor();
    await page.getByRole('row').filter({ hasText: state.clip! }).getByText(/^Clip/).waitFor();
    await page.getByRole('button', { name: 'Play preview' }).click();
    await page.getByTestId('preview-video').waitFor();
    const href = await page.getByRole('link', { name: 'Open the HLS link' }).getAttribute('href');
    expect(href).toContain(`/v1/streams/playback/${state.stream!.playback_ids[0]!.id}.m3u8?token=`);
    const playlist = await fetch(href!);
    expect(playlist.status).toBe(200);
    // A recording previews on its own link.
    await page.getByRole('button', { name: `Preview ${state.recording}` }).click();
    await page.getByRole('heading', { name: /Preview: recording/ }).waitFor();
    await page.getByRole('button', { name: 'Play preview' }).click();
    await page.getByTestId('preview-video').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-live-stream');
  });

  it('shows a waiting attempt, then the late payment held for review, and refunds it from there', async () => {
    const attempt = await pendingPayment();
    await nav('Reconciliation').click();
    await page.getByRole('heading', { name: 'Pending attempts' }).waitFor();
    await page.getByRole('row').filter({ hasText: attempt.payment }).getByText('Payer confirms on their phone').waitFor();
    await page.getByText('Nothing held for review').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The order expires; then the payer's confirmation arrives: a late payment, which takes the seat again.
    await http().ok('POST', `/v1/test_helpers/orders/${attempt.order}/expire`, sk());
    await http().ok('POST', `/v1/test_helpers/payments/${attempt.payment}/settle`, sk(), { outcome: 'succeeded' });
    await page.reload();
    const held = page.getByRole('row').filter({ hasText: attempt.payment });
    await held.getByText(/^Late:/).waitFor();
    await page.getByText('No attempts waiting').waitFor();
    await shoot(page, 'desktop-reconciliation');

    await held.getByRole('button', { name: `Refund ${attempt.payment}` }).click();
    const form = page.getByRole('form', { name: `Refund payment ${attempt.payment}` });
    await expect(form.getByLabel('Amount (KES)').inputValue()).resolves.toBe('1500.00');
    await form.getByLabel('Amount (KES)').fill('500');
    await form.getByRole('button', { name: 'Issue refund' }).click();
    await page.getByText(`Refund issued for ${attempt.payment}.`).waitFor();
    await held.getByText('KES 500.00').waitFor();
    const refunds = await http().ok('GET', `/v1/refunds?payment=${attempt.payment}`, sk());
    expect(refunds).toMatchObject([{ amount: 50_000, status: 'succeeded', reason: 'Refunded after review' }]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lists payment attempts and refunds with their filters in the URL', async () => {
    await nav('Payment attempts').click();
    await page.getByLabel('Late').selectOption('yes');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/late=yes/);
    await page.getByRole('row').filter({ hasText: 'late' }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-payment-attempts');
    await page.getByRole('link', { name: 'Refunds', exact: true }).click();
    await page.waitForURL(/view=refunds/);
    await page.getByText('Refunded after review').waitFor();
    await page.goBack();
    await page.waitForURL(/late=yes/);
  });

  it('shows the new screens at phone width without a CSP violation', async () => {
    await run.phoneScreens(page, [
      ['/console/shows/streams', 'phone-live-streams'],
      [`/console/shows/streams/${state.stream!.id}`, 'phone-live-stream'],
      ['/console/money/reconciliation', 'phone-reconciliation'],
      ['/console/money/attempts?view=refunds', 'phone-refunds'],
    ]);
  });
});
