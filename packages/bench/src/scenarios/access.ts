import { randomUUID } from 'node:crypto';
import { liveStream, viewers } from './seed';
import { auth, ratio, type Scenario } from './types';

/** Session opens by 2,000 viewers of one stream: new devices within their limits, and under replace_oldest. */
export const sessionOpen: Scenario = {
  name: 'session-open',
  run: async (ctx, measure) => {
    const stream = await liveStream(ctx);
    const within = await viewers(ctx, 'open', 2000, stream.id, { max_devices: 1000, max_concurrent_sessions: 1000, concurrency_policy: 'reject_new', max_views: 10_000 });
    const replacing = await viewers(ctx, 'replace', 2000, stream.id, { max_concurrent_sessions: 1, concurrency_policy: 'replace_oldest' });
    const opens = (customers: string[]) => {
      let n = 0;
      return () => {
        const i = n++;
        const body = { resource: stream.id, customer: customers[i % customers.length], device_id: `device-${i}` };
        return { method: 'POST' as const, path: '/v1/access/sessions', headers: auth(ctx), body: JSON.stringify(body) };
      };
    };
    const fresh = await measure(opens(within));
    const replace = await measure(opens(replacing));
    return {
      results: [
        { name: 'session open (new devices)', result: fresh, target: ratio(0.5) },
        { name: 'session open (replace_oldest)', result: replace, target: ratio(0.5) },
      ],
    };
  },
};

/** `POST /v1/access/check` round-robin over 1,000 entitled viewers. */
export const accessCheck: Scenario = {
  name: 'access-check',
  run: async (ctx, measure) => {
    const stream = await liveStream(ctx);
    const customers = await viewers(ctx, 'check', 1000, stream.id);
    const bodies = customers.map((customer) => JSON.stringify({ customer, resource: { type: 'ls', id: stream.id } }));
    let n = 0;
    const result = await measure(() => ({ method: 'POST', path: '/v1/access/check', headers: auth(ctx), body: bodies[n++ % bodies.length] }));
    return { results: [{ name: 'access check', result, target: ratio(1.0) }] };
  },
};

/** New grants, each with its own Idempotency-Key (required on this route) and customer. */
export const entitlementGrant: Scenario = {
  name: 'entitlement-grant',
  run: async (ctx, measure) => {
    const stream = await liveStream(ctx);
    let n = 0;
    const result = await measure(() => ({
      method: 'POST',
      path: '/v1/access/entitlements',
      headers: { ...auth(ctx), 'idempotency-key': randomUUID() },
      body: JSON.stringify({ customer: `grant-${n}`, resource: { type: 'ls', id: stream.id }, source_ref: `ref-${n++}` }),
    }));
    return { results: [{ name: 'entitlement grant', result, target: ratio(0.5) }] };
  },
};
