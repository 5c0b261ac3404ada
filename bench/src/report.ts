import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from './measure';
import { ROOT } from './processes';

export interface Row extends Result {
  scenario: string;
  /** Requests per second divided by the one-write ceiling of the same run. */
  ratioToWrite: number;
  target?: string;
  met?: boolean;
  note?: string;
}

const pad = (s: string, n: number) => s.padEnd(n);
const num = (n: number, d = 0) => n.toFixed(d);

export function table(rows: Row[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'non-2xx', 'peak RSS MB', '× write ceiling', 'target', 'met'];
  const lines = rows.map((r) => [
    r.scenario,
    num(r.requestsPerSecond),
    num(r.p50Ms, 1),
    num(r.p99Ms, 1),
    num(r.maxMs, 1),
    num(r.errors),
    num(r.non2xx),
    num(r.peakRssMb),
    num(r.ratioToWrite, 2),
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'no',
  ]);
  return [header, ...lines].map((cols) => `| ${cols.join(' | ')} |`).join('\n').replace(/\n/, `\n|${header.map(() => '---').join('|')}|\n`);
}

export function console_(rows: Row[]): string {
  const widths = [34, 9, 8, 8, 8, 7, 8, 12, 16];
  return rows
    .map((r) =>
      [r.scenario, num(r.requestsPerSecond), num(r.p50Ms, 1), num(r.p99Ms, 1), num(r.maxMs, 1), num(r.errors), num(r.non2xx), num(r.peakRssMb), `${num(r.ratioToWrite, 2)}×`]
        .map((c, i) => pad(c, widths[i]!))
        .join(''),
    )
    .join('\n');
}

/** `bench/results/<date>.json` and the table in `docs/benchmarks.md`. */
export function save(rows: Row[], meta: Record<string, unknown>, notes: string[]): string {
  const date = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `${date}.json`);
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), meta, rows }, null, 2)}\n`);
  const doc = [
    '# Benchmarks',
    '',
    'Made by `pnpm bench` (not part of the tests): the server runs as its own process on a fresh PostgreSQL database,',
    'autocannon drives each scenario after a warm-up, and each figure is also given as a ratio to the one-write ceiling',
    'measured in the same run (an Express route doing one indexed `UPDATE … RETURNING`), because absolute figures drift',
    'between runs on shared machines.',
    '',
    `Last run: ${new Date().toISOString()} — ${Object.entries(meta).map(([k, v]) => `${k}: ${v}`).join(', ')}.`,
    '',
    table(rows),
    '',
    ...(notes.length ? ['## Notes', '', ...notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
  writeFileSync(join(ROOT, 'docs/benchmarks.md'), doc);
  return file;
}
