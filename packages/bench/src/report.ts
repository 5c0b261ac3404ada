import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from './measure';
import { ROOT } from './processes';

export interface Row extends Result {
  scenario: string;
  /** Requests per second divided by the one-write ceiling measured just before. */
  ratioToWrite: number;
  /** That ceiling, in requests per second. */
  writeCeiling: number;
  target?: string;
  met?: boolean;
  note?: string;
}

const num = (n: number, d = 0) => n.toFixed(d);
const COLUMNS = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'non-2xx', 'peak RSS MB', 'CPU µs/req', 'CPU %', 'PG CPU %', 'write req/s', '× write', 'target', 'met'];

const cells = (r: Row) => [
  r.scenario,
  num(r.requestsPerSecond),
  num(r.p50Ms, 1),
  num(r.p99Ms, 1),
  num(r.maxMs, 1),
  num(r.errors),
  num(r.non2xx),
  num(r.peakRssMb),
  num(r.cpuUsPerRequest ?? 0),
  num(r.cpuPercent ?? 0),
  num(r.postgresCpuPercent ?? 0),
  num(r.writeCeiling),
  num(r.ratioToWrite, 2),
  r.target ?? '',
  r.met === undefined ? '' : r.met ? 'yes' : 'no',
];

export function table(rows: Row[]): string {
  const lines = [COLUMNS, COLUMNS.map(() => '---'), ...rows.map(cells)];
  return lines.map((cols) => `| ${cols.join(' | ')} |`).join('\n');
}

const WIDTHS = [40, 8, 8, 8, 8, 7, 8, 12, 11, 6, 9, 12, 8, 26, 4];
const line = (cols: string[]) => cols.map((c, i) => c.padEnd(WIDTHS[i]!)).join(' ').trimEnd();
export const header = () => line(COLUMNS);
export const console_ = (rows: Row[]) => rows.map((r) => line(cells(r))).join('\n');

const START = '<!-- bench:figures:start -->';
const END = '<!-- bench:figures:end -->';

/**
 * `packages/bench/results/<date>.json`, and the figures in `docs/benchmarks.md` between its markers: the text around
 * them (what limits each path) is written by hand and kept. A partial run (`--only`) leaves the document alone.
 */
export function save(rows: Row[], meta: Record<string, unknown>, notes: string[], updateDoc: boolean): string {
  const date = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
  // Partial runs are kept apart (and out of git): only whole runs are the record.
  const dir = join(ROOT, updateDoc ? 'packages/bench/results' : 'packages/bench/results/partial');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${date}.json`);
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), meta, rows, notes }, null, 2)}\n`);
  if (!updateDoc) return file;
  const figures = [
    START,
    `Last run: ${new Date().toISOString()} — ${Object.entries(meta).map(([k, v]) => `${k}: ${v}`).join(', ')}.`,
    '',
    table(rows),
    '',
    ...notes.map((n) => `- ${n}`),
    END,
  ].join('\n');
  const doc = join(ROOT, 'docs/benchmarks.md');
  const current = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  const at = current.indexOf(START);
  const until = current.indexOf(END);
  const next = at >= 0 && until > at ? current.slice(0, at) + figures + current.slice(until + END.length) : `# Benchmarks\n\n${figures}\n`;
  writeFileSync(doc, next);
  return file;
}
