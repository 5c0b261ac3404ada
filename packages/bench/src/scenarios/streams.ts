import { pool } from '../api';
import { liveStream } from './seed';
import { auth, ratio, type Scenario } from './types';

/** A page of 20 live streams filtered by metadata, among 200 (a quarter match). */
export const listLiveStreams: Scenario = {
  name: 'list-live-streams',
  run: async (ctx, measure) => {
    await pool(Array.from({ length: 200 }, (_, i) => i), 10, async (i) => {
      await liveStream(ctx, { tier: i % 4 === 0 ? 'gold' : 'standard' });
    });
    const result = await measure(() => ({ method: 'GET', path: '/v1/streams/live_streams?limit=20&metadata[tier]=gold', headers: auth(ctx) }));
    return { results: [{ name: 'list live streams (20, metadata)', result, target: ratio(0.5) }] };
  },
};
