import { benchOrganization, publishable, publishedEvent, query } from './ticketing-seed';
import { auth, ratio, RSS_LIMIT_MB, type Context, type Scenario } from './types';

/**
 * `GET /v1/events/{slug}` with the publishable key, as a buyer's browser reads the event page. Each request is
 * another visitor (its own user agent), so each one counts a page view: the views counted are checked against
 * the requests sent.
 */
export const publicEventPage: Scenario = {
  name: 'public-event-page',
  run: async (ctx, measure) => {
    const event = await publishedEvent(ctx, 'Bench Page', { quantity: 1000 });
    let sent = 0;
    const result = await measure(() => ({
      method: 'GET',
      path: `/v1/events/${event.slug}`,
      headers: { ...publishable(ctx), 'user-agent': `bench-visitor-${sent++}` },
    }));
    // The server writes counted views each second: the count is read once it has not grown for longer than that.
    const countViews = async () =>
      Number((await query<{ n: string }>(ctx, 'select count(*) as n from event_page_views where event_id = $1', [event.id]))[0]!.n);
    let counted = await countViews();
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 1500));
      const now = await countViews();
      if (now === counted) break;
      counted = now;
    }
    // Requests still in flight when a run ends are cut off: the views lie between those answered and those sent.
    return {
      results: [{ name: 'public event page (publishable key, view counted)', result, target: ratio(1.5, 20) }],
      notes: [`Public event page: ${counted} page views counted for ${sent} requests sent (warm-up included), one visitor each.`],
    };
  },
};

/** The six-digit code in the newest test-mode message to `to`, as a test-mode integration reads it. */
async function latestCode(ctx: Context, to: string): Promise<string> {
  const { data } = await ctx.api.call('GET', `/v1/messages?to=${encodeURIComponent(to)}&limit=1`);
  const code = /\b(\d{6})\b/.exec(data[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`signed-in read: no sign-in code was sent to ${to}`);
  return code;
}

/** A POST from a browser: the publishable key, no secret. */
async function browser(ctx: Context, path: string, body: unknown): Promise<any> {
  const res = await fetch(ctx.svc.url + path, { method: 'POST', headers: { ...publishable(ctx), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} → ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A member of the organization, signed in through the test-mode code flow: an access token and the tenant header. */
export async function signedInMember(ctx: Context, organization: string, role = 'viewer'): Promise<Record<string, string>> {
  const phone = `+2547${String(Date.now() % 1e8).padStart(8, '0')}`;
  await ctx.api.call('POST', `/v1/organizations/${organization}/members`, { phone, role });
  await browser(ctx, '/auth/v1/otp', { phone });
  const session = (await browser(ctx, '/auth/v1/verify', { phone, code: await latestCode(ctx, phone) })).data;
  const [tenant] = await query<{ code: string }>(ctx, 'select code from tenants where id = $1', [ctx.tenantId]);
  return { authorization: `Bearer ${session.access_token}`, 'x-tenant-code': tenant!.code };
}

/**
 * A member's `GET /v1/organizer/events/{event}` (access token and tenant header) against the same read with the
 * secret key, in the same run: verifying the token and checking the membership must not dominate.
 */
export const signedInRead: Scenario = {
  name: 'signed-in-read',
  run: async (ctx, measure) => {
    const org = await benchOrganization(ctx);
    const event = await publishedEvent(ctx, 'Bench Organizer Read', { quantity: 1000 });
    const member = await signedInMember(ctx, org);
    const path = `/v1/organizer/events/${event.id}`;
    // Both reads must answer the same event before they are compared.
    const bySecret = await fetch(ctx.svc.url + path, { headers: auth(ctx) }).then((r) => r.json() as Promise<any>);
    const byMember = await fetch(ctx.svc.url + path, { headers: member }).then((r) => r.json() as Promise<any>);
    if (bySecret.data?.id !== event.id || byMember.data?.id !== event.id) {
      throw new Error(`signed-in read: the two reads differ: ${JSON.stringify(byMember).slice(0, 300)}`);
    }
    const secret = await measure(() => ({ method: 'GET', path, headers: auth(ctx) }));
    const signedIn = await measure(() => ({ method: 'GET', path, headers: member }));
    const toSecret = signedIn.requestsPerSecond / secret.requestsPerSecond;
    return {
      results: [
        { name: 'organizer event read, secret key', result: secret },
        {
          name: 'organizer event read, member access token',
          result: signedIn,
          target: {
            label: '≥ 0.9× the secret-key read',
            met: (r) => toSecret >= 0.9 && r.errors === 0 && r.non2xx === 0 && r.peakRssMb <= RSS_LIMIT_MB,
          },
          note: `${toSecret.toFixed(2)}× the secret-key read`,
        },
      ],
      notes: [
        `Signed-in read: the member's read ran at ${toSecret.toFixed(2)}× the secret-key read (${signedIn.requestsPerSecond} against ${secret.requestsPerSecond} req/s; ` +
          `${signedIn.cpuUsPerRequest} against ${secret.cpuUsPerRequest} µs of server CPU per request).`,
      ],
    };
  },
};
