import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineJob } from '../../src/jobs/job-definition';
import { contract } from '@svc/contract';
import { checkModules, modulePart, type ModuleDefinition } from '../../src/core/modules/module-definition';
import { MODULES } from '../../src/modules';
import { createTestServer } from '../harness';

/** A product that is one folder plus one entry in the list: a page, a job and a long-lived part, nothing in core. */
const greetings = modulePart<{ said: string[] }>('throwaway.greetings');
const greet = defineJob({ name: 'throwaway-greet', version: 1, payload: z.object({ to: z.string() }), retry: { limit: 0 } });
const throwaway: ModuleDefinition = {
  name: 'throwaway',
  setup: (ctx) => greetings.set(ctx, { said: [] }),
  pages: { paths: ['/throwaway'], mount: (app, ctx) => app.get('/throwaway', (_req, res) => res.json({ said: greetings.of(ctx).said })) },
  jobs: (ctx) => [{ ...greet, handler: async (payloads) => void greetings.of(ctx).said.push(...payloads.map((p) => p.to)) }],
};

/** The contract groups each listed module serves. */
const SERVED: Record<string, object> = {
  access: { access: 1 },
  platform: { platform: 1, keys: 1, operator: 1, requestLogs: 1 },
  webhooks: { webhookEndpoints: 1, eventLog: 1 },
  streams: { streams: 1 },
  identity: { identity: 1, customers: 1, organizations: 1 },
  ticketing: { organizerEvents: 1, ticketTypes: 1, eventSlots: 1, coupons: 1, booking: 1, orders: 1, tickets: 1, ticketingPayments: 1, attendees: 1, checkins: 1, analytics: 1, activity: 1 },
  creators: { creators: 1 },
  whitelabel: { branding: 1, domains: 1 },
  payments: { payments: 1 },
  fanbases: { fanbases: 1, fanbasesPublic: 1, subscriptions: 1 },
  commerce: { commerce: 1 },
  promoters: { promoters: 1, commissions: 1, promoterView: 1 },
};

describe('The module list', () => {
  it('takes a new module with one entry: its setup, pages and jobs plug in', async () => {
    const t = await createTestServer({}, [...MODULES, throwaway]);
    try {
      greetings.of(t.ctx).said.push('list');
      expect((await t.http().get('/throwaway')).body).toEqual({ said: ['list'] });
      expect(throwaway.jobs!(t.ctx).map((j) => j.name)).toEqual(['throwaway-greet']);
      // The contract's routes still answer beside it.
      expect((await t.http().get('/v1/status')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('refuses a list in which a contract group has no module, or two', () => {
    const groups = Object.keys(contract);
    const serving = (m: ModuleDefinition) => Object.fromEntries(Object.keys(SERVED[m.name] ?? {}).map((g) => [g, {}]));
    const withoutStreams = MODULES.filter((m) => m.name !== 'streams');
    expect(() => checkModules(withoutStreams, withoutStreams.map(serving), groups)).toThrow(/no module serves the contract group\(s\) streams/);
    const twice = [...MODULES, { name: 'streams-again' }];
    const routers = [...MODULES.map(serving), { streams: {} }];
    expect(() => checkModules(twice, routers, groups)).toThrow(/served by streams and streams-again/);
    expect(() => checkModules(MODULES, MODULES.map(serving), groups)).not.toThrow();
  });
});
