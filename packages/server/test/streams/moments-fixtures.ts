import { beforeEach } from 'vitest';
import type { TestServer } from '../harness';
import { createLiveStream, expectStatus, simulateStream, takeClipTries, useManualClock, useMediaTenant } from './media-fixtures';

export const SETTLE = 10;
const T0 = '2026-03-01T20:00:00.000Z';

/**
 * The moments tests' tenant, with a clock at T0 and no queued clip tries before each test, and the helpers they share.
 */
export function useMomentsTenant(t: TestServer) {
  const tenant = useMediaTenant(t, 'Moments');
  const { keys, api } = tenant;
  const clock = useManualClock(t, new Date(T0));
  beforeEach(async () => {
    await takeClipTries(t);
  });

  const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000);

  /** A stream whose broadcast went live at T0 (the clock's start), with its recording asset. */
  async function liveStream() {
    const stream = await createLiveStream(t, keys.test.secret);
    await simulateStream(t, keys.test.secret, stream.id, 'connected', 'active');
    const recordings = expectStatus(await api.get('/v1/streams/assets?source=recording&limit=100'), 200).data;
    const recording = recordings.find((a: any) => a.live_stream === stream.id);
    return { stream, recording };
  }

  const mark = (streamId: string, body: object, headers: Record<string, string> = {}) =>
    api.post(`/v1/streams/live_streams/${streamId}/moments`, body, headers);

  return { tenant, keys, api, clock, at, liveStream, mark };
}
