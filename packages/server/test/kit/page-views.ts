import { flushPageViews } from '../../src/modules/ticketing/public/page-views';
import type { TestServer } from '../harness';

/**
 * Writes the page views the test server counted so far. A running server writes them every second and when it
 * stops; the test harness starts no workers, so a test that reads page views or their rollups calls this first.
 */
export const writePageViews = (t: Pick<TestServer, 'ctx'>): Promise<void> => flushPageViews(t.ctx);
