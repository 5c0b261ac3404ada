import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RequestSummary } from './request-summary';

function logInto(lines: Record<string, unknown>[]) {
  return pino({ level: 'info' }, new Writable({ write: (c, _e, done) => (lines.push(JSON.parse(String(c))), done()) }));
}

describe('RequestSummary', () => {
  it('gives count, status classes and latency percentiles per route, then starts over', () => {
    const lines: Record<string, unknown>[] = [];
    const log = logInto(lines);
    const s = new RequestSummary();
    for (let ms = 1; ms <= 100; ms++) s.add('POST /beat', ms === 100 ? 503 : 200, ms);
    s.add('POST /beat', 0, 7);
    s.add('GET /other', 404, 30_000);
    s.flush(log, 60);
    expect(lines).toHaveLength(2);
    const beat = lines.find((l) => l.route === 'POST /beat')!;
    expect(beat).toMatchObject({ msg: 'requests summary', interval_s: 60, count: 101, status: { '2xx': 99, '5xx': 1, aborted: 1 } });
    expect(beat.latency_ms).toEqual({ p50: 50, p90: 90, p99: 99, max: 100 });
    // Slower than the histogram's bound: the percentile is the real maximum.
    expect(lines.find((l) => l.route === 'GET /other')!.latency_ms).toEqual({ p50: 30_000, p90: 30_000, p99: 30_000, max: 30_000 });
    s.flush(log, 60);
    expect(lines).toHaveLength(2);
  });
});
