import { sql } from 'kysely';
import { beforeAll, beforeEach, expect } from 'vitest';
import { SimulatedVideoNetwork } from '../../src/modules/streams/network/simulated-network';
import { VideoNetworkRejection, type ClipInput, type CreatedNetworkAsset } from '../../src/modules/streams/network/video-network';
import { cutMomentClipJobType } from '../../src/modules/streams/moments/moment-clips';
import { mediaDeps } from '../../src/modules/streams/assets/media-deps';
import { cutMomentClip } from '../../src/modules/streams/moments/cut-moment-clip.job';
import type { CutMomentClipJob } from '../../src/modules/streams/moments/moment-clips';
import { createTenant } from '../../src/modules/platform/tenants/tenants.service';
import { bearer, type TestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';

export type Keys = Awaited<ReturnType<TestServer['tenant']>>['keys'];

/** A tenant whose keys are not rate limited in practice: these tests send bursts on purpose, on a shared 2-core machine. */
export const busyTenant = (t: TestServer, name: string) =>
  createTenant(t.ctx.db, { name, rate_limits: { secret: 100_000, publishable: 100_000 } });

/** A busy tenant and what the tests use of it: its keys, its id and a client on its test secret key. */
export async function mediaTenant(t: TestServer, name: string) {
  const { keys, tenant } = await busyTenant(t, name);
  return { keys, tenantId: tenant.id, api: client(t, keys.test.secret) };
}

/**
 * A file's media tenant, made before its tests run. `keys` and `api` are filled in place and `id` is set then,
 * so a file may take `const { keys, api } = tenant` at its top.
 */
export function useMediaTenant(t: TestServer, name: string) {
  const tenant = { id: '', keys: {} as Keys, api: {} as ReturnType<typeof client> };
  beforeAll(async () => {
    const made = await mediaTenant(t, name);
    tenant.id = made.tenantId;
    Object.assign(tenant.keys, made.keys);
    Object.assign(tenant.api, made.api);
  });
  return tenant;
}

/** Requests with one key, in the shape every test here uses. */
export function client(t: TestServer, key: string) {
  const auth = bearer(key);
  return {
    get: (path: string) => t.http().get(path).set(auth),
    post: (path: string, body?: object, headers: Record<string, string> = {}) => {
      const req = t.http().post(path).set(auth).set(headers);
      return body === undefined ? req : req.send(body);
    },
    patch: (path: string, body: object) => t.http().patch(path).set(auth).send(body),
    delete: (path: string) => t.http().delete(path).set(auth),
  };
}

export { expectError, expectStatus };

export interface LoggedEvent {
  id: string;
  type: string;
  subject: string;
  livemode: boolean;
  data: { object: Record<string, any>; previous_attributes: Record<string, any> | null };
  request: { id: string; idempotency_key: string | null } | null;
}

/** The tenant's events in the order they were recorded, optionally of one subject. */
export async function eventsOf(t: TestServer, tenantId: string, subject?: string): Promise<LoggedEvent[]> {
  let q = t.ctx.db.selectFrom('event_log').select(['envelope']).where('tenant_id', '=', tenantId).orderBy('id');
  if (subject) q = q.where('subject', '=', subject);
  return (await q.execute()).map((r) => JSON.parse(r.envelope) as LoggedEvent);
}

export const typesOf = (events: LoggedEvent[]) => events.map((e) => e.type);

export const VIDEO_URL = 'https://media.example.com/videos/launch.mp4';

export async function createAsset(t: TestServer, key: string, body: object = {}) {
  const res = await client(t, key).post('/v1/streams/assets', { url: VIDEO_URL, ...body });
  return expectStatus(res, 201).data as Record<string, any>;
}

export async function readyAsset(t: TestServer, key: string, duration = 120, body: object = {}) {
  const asset = await createAsset(t, key, body);
  const res = await client(t, key).post(`/v1/test_helpers/assets/${asset.id}/simulate`, { event: 'ready', duration });
  return expectStatus(res, 200).data as Record<string, any>;
}

export async function createLiveStream(t: TestServer, key: string) {
  const res = await client(t, key).post('/v1/streams/live_streams', {});
  return expectStatus(res, 201).data as Record<string, any>;
}

/** Drives a test-mode stream through the simulated network, as an encoder would. */
export async function simulateStream(t: TestServer, key: string, id: string, ...events: string[]) {
  let body: any;
  for (const event of events) {
    body = expectStatus(await client(t, key).post(`/v1/test_helpers/live_streams/${id}/simulate`, { event }), 200);
  }
  return body?.data as Record<string, any>;
}

/** A simulated network whose clips and recordings fail, for the retry schedule. */
export class FailingClipNetwork extends SimulatedVideoNetwork {
  tries = 0;
  override async createClip(_input: ClipInput): Promise<CreatedNetworkAsset> {
    this.tries += 1;
    throw new VideoNetworkRejection('The simulated network is down for clips.');
  }
}

/** A clock tests move by hand; `t.ctx.clock` reads it. */
export function manualClock(t: TestServer, start = new Date()) {
  let now = new Date(start);
  t.ctx.clock = () => new Date(now);
  return {
    now: () => new Date(now),
    set: (to: Date) => {
      now = new Date(to);
    },
    advance: (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000);
      return new Date(now);
    },
  };
}

/** A manual clock set back to `start` before each test of the file. */
export function useManualClock(t: TestServer, start: Date) {
  let clock: ReturnType<typeof manualClock>;
  beforeEach(() => {
    clock = manualClock(t, start);
  });
  return {
    now: () => clock.now(),
    set: (to: Date) => clock.set(to),
    advance: (seconds: number) => clock.advance(seconds),
  };
}

export interface QueuedClipTry {
  data: CutMomentClipJob;
  startAfter: Date;
}

/** Takes the queued clip tries off pg-boss (no worker runs in these tests), earliest first. */
export async function takeClipTries(t: TestServer): Promise<QueuedClipTry[]> {
  const { rows } = await sql<{ data: CutMomentClipJob; start_after: Date }>`
    delete from pgboss.job where name = ${cutMomentClipJobType.name} and state = 'created' returning data, start_after`.execute(t.ctx.db);
  return rows.map((r) => ({ data: r.data, startAfter: new Date(r.start_after) })).sort((a, b) => a.startAfter.getTime() - b.startAfter.getTime());
}

/** Runs a clip try as the worker would. */
export const runClipTry = (t: TestServer, job: CutMomentClipJob) => cutMomentClip(mediaDeps(t.ctx), job);
