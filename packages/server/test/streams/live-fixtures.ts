import { beforeAll, expect } from 'vitest';
import type { TestServer } from '../harness';
import { client, eventsOf, expectStatus, type LoggedEvent } from './media-fixtures';

export { client, expectError, expectStatus, eventsOf, type LoggedEvent } from './media-fixtures';

/** A file's tenant for the live tests: its `id` and test secret `key` are set before the file's tests run. */
export function useLiveTenant(t: TestServer, name: string) {
  const tenant = { id: '', key: '' };
  beforeAll(async () => {
    const created = await t.tenant(name);
    tenant.id = created.tenant.id;
    tenant.key = created.keys.test.secret;
  });
  return { tenant, api: () => client(t, tenant.key) };
}

export async function createStream(t: TestServer, key: string, body: object = {}) {
  return expectStatus(await client(t, key).post('/v1/streams/live_streams', body), 201).data as Record<string, any>;
}

export const simulate = (t: TestServer, key: string, id: string, body: { event: string; stream_key?: string; reason?: string }) =>
  client(t, key).post(`/v1/test_helpers/live_streams/${id}/simulate`, body);

/** Drives a stream through the helper, expecting each report to be taken. */
export async function drive(t: TestServer, key: string, id: string, ...events: string[]) {
  let stream: Record<string, any> = {};
  for (const event of events) stream = expectStatus(await simulate(t, key, id, { event }), 200).data;
  return stream;
}

/** Events about one stream, in `sequence` order; checks the sequence runs 1, 2, 3… without gaps. */
export async function streamEvents(t: TestServer, tenantId: string, streamId: string): Promise<LoggedEvent[]> {
  const events = (await eventsOf(t, tenantId, streamId)).sort((a, b) => a.data.object.sequence - b.data.object.sequence);
  expect(events.map((e) => e.data.object.sequence)).toEqual(events.map((_, i) => i + 1));
  return events;
}

/** Switches the tenant's live-mode network or own video environment through the operator API. */
export async function setVideo(t: TestServer, tenantId: string, video: { live_network?: string | null; dedicated_environment?: boolean }) {
  const res = await t.http().patch(`/v1/operator/tenants/${tenantId}`).set(t.operator).send({ video });
  return expectStatus(res, 200).data;
}
