import { Writable } from 'node:stream';
import supertest from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app';
import { createLogger } from '../../src/boot/logger';
import { bearer } from '../harness';
import { entitled, expectStatus, useAccessTestServer } from './access-fixtures';

const t = useAccessTestServer();

interface Line {
  level: number;
  msg: string;
  req?: { id?: string; url?: string };
  route?: string;
  count?: number;
  status?: Record<string, number>;
  latency_ms?: { p50: number; p90: number; p99: number; max: number };
}

/** The app with the production logger at `level`, writing into an array, summarising every `seconds`. */
function appWithLog(level: string, seconds = 60) {
  const lines: Line[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk)) as Line), done()) });
  const app = createApp({ ...t.ctx, config: { ...t.ctx.config, SVC_LOG_SUMMARY_SECONDS: seconds }, log: createLogger(level, sink) });
  return { http: () => supertest(app), lines };
}

const HEARTBEAT_ROUTE = 'POST /v1/access/sessions/:id/heartbeat';

describe('request logs of heartbeats', () => {
  it('writes each heartbeat\'s line at debug with its request id, other requests\' at info', async () => {
    const e = await entitled(t);
    const log = appWithLog('trace');
    const opened = await log.http().post('/v1/access/sessions').set(bearer(e.sk)).send({ resource: e.stream.id, customer: 'viewer-1', device_id: 'd' });
    const session = expectStatus(opened, 201).data;
    const beat = await log.http().post(`/v1/access/sessions/${session.id}/heartbeat`).set(bearer(e.sk));
    expectStatus(beat, 200);

    const completed = log.lines.filter((l) => l.msg === 'request completed');
    const beatLine = completed.find((l) => l.req?.id === beat.headers['request-id']);
    expect(beatLine?.level).toBe(20);
    expect(beatLine?.req?.url).toBe(`/v1/access/sessions/${session.id}/heartbeat`);
    expect(completed.find((l) => l.req?.id === opened.headers['request-id'])?.level).toBe(30);
  });

  it('writes no line per heartbeat at info, and a summary line per interval: count, status classes, latency percentiles', async () => {
    const e = await entitled(t);
    const log = appWithLog('info', 0.2);
    const opened = await log.http().post('/v1/access/sessions').set(bearer(e.sk)).send({ resource: e.stream.id, customer: 'viewer-1', device_id: 'd' });
    const session = expectStatus(opened, 201).data;
    for (let i = 0; i < 3; i++) expectStatus(await log.http().post(`/v1/access/sessions/${session.id}/heartbeat`).set(bearer(e.sk)), 200);
    expect((await log.http().delete(`/v1/access/sessions/${session.id}`).set(bearer(e.sk))).status).toBe(200);
    // A heartbeat on the ended session is refused (4xx), and counted as such.
    expect((await log.http().post(`/v1/access/sessions/${session.id}/heartbeat`).set(bearer(e.sk))).status).toBe(403);

    const summaries = () => log.lines.filter((l) => l.msg === 'requests summary' && l.route === HEARTBEAT_ROUTE);
    // The four may fall into two intervals: wait for every one to be summarised.
    const total = () => summaries().reduce((n, l) => n + l.count!, 0);
    await vi.waitFor(() => expect(total()).toBeGreaterThanOrEqual(4), { timeout: 5_000, interval: 50 });
    expect(total()).toBe(4);
    const byClass = summaries().reduce<Record<string, number>>((acc, l) => {
      for (const [cls, n] of Object.entries(l.status!)) acc[cls] = (acc[cls] ?? 0) + n;
      return acc;
    }, {});
    expect(byClass).toEqual({ '2xx': 3, '4xx': 1 });
    const first = summaries()[0]!;
    expect(first.level).toBe(30);
    expect(first.latency_ms!.p50).toBeLessThanOrEqual(first.latency_ms!.p99);
    expect(first.latency_ms!.p99).toBeLessThanOrEqual(first.latency_ms!.max);
    // The heartbeats wrote no line of their own; the open and the end did.
    const heartbeatLines = log.lines.filter((l) => l.req?.url?.endsWith('/heartbeat'));
    expect(heartbeatLines).toEqual([]);
    expect(log.lines.some((l) => l.req?.id === opened.headers['request-id'] && l.msg === 'request completed')).toBe(true);
  });

  it('writes the lines of the other per-viewer and per-ticket routes at debug too: the access check, a door scan', async () => {
    const e = await entitled(t);
    const log = appWithLog('trace');
    const check = await log.http().post('/v1/access/check').set(bearer(e.sk)).send({ customer: 'viewer-1', resource: { type: 'ls', id: e.stream.id } });
    expectStatus(check, 200);
    const scan = await log.http().post('/v1/organizer/events/no-such-show/checkins').set(bearer(e.sk)).send({ secret: 'X'.repeat(32), type: 'entry' });
    expect(scan.status).toBe(404);
    const levelOf = (id: string) => log.lines.find((l) => l.msg === 'request completed' && l.req?.id === id)?.level;
    expect(levelOf(check.headers['request-id'])).toBe(20);
    expect(levelOf(scan.headers['request-id'])).toBe(20);
  });
});
