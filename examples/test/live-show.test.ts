import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc } from '@svc/sdk-node';
import { startServer, type RunningServer } from '@svc/server/testing';
import { liveShow } from '../src/live-show';

let api: RunningServer;
beforeAll(async () => {
  api = await startServer();
}, 90_000);
afterAll(() => api?.stop());

describe('the live show, through the SDKs against the reference server', () => {
  it('publishes an event, books and pays two tickets, signs the attendee in and opens the stream with the ticket', async () => {
    const { keys } = await api.createTenant('Live show');
    const lines: string[] = [];
    const show = await liveShow({ apiKey: keys.test.secret, publishableKey: keys.test.publishable, apiBaseUrl: api.url, log: (l) => lines.push(l) });
    expect(show.order.status).toBe('paid');
    expect(show.tickets).toHaveLength(1);
    expect(show.tickets[0]).toMatchObject({ status: 'valid', order: show.order.id });
    expect(show.session.link).toMatch(new RegExp(`^${api.url}/v1/streams/playback/pb_\\w+\\.m3u8\\?token=`));

    // The entitlement came from the ticket, and the organizer sees the playing session end with it.
    const svc = new Svc({ apiKey: keys.test.secret, baseUrl: api.url });
    const entitlements = await svc.access.entitlements.list({ customer: show.tickets[0]!.customer! });
    expect(entitlements.data.map((e) => [e.source, e.source_ref])).toEqual([['ticket', show.order.code]]);
    await show.session.end();
    expect(lines.at(-1)).toMatch(/^attendee: playing /);
  }, 120_000);
});
