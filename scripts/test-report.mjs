// Prints each suite's status, time and test counts, the suites left out by SVC_TEST_SKIP, then what the test runners
// said of any failure: with two lanes side by side, a failure is otherwise far up the output, among the other
// lane's lines. Ends with one line of totals.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { optedOut, SUITES } from './test-suites.mjs';

const [logs, seconds, postgresCpu] = process.argv.slice(2);
const ansi = /\u001b\[[0-9;]*m/g;
const read = (file) => (existsSync(join(logs, file)) ? readFileSync(join(logs, file), 'utf8').replace(ansi, '') : undefined);

/** Vitest's closing count, e.g. "Tests  2395 passed | 12 skipped (2407)", or "3 failed | 2392 passed". */
function counts(text) {
  const line = text.split('\n').findLast((l) => /^\s*Tests\s+\d/.test(l)) ?? '';
  const n = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped') + n('todo') };
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const names = readdirSync(logs).filter((f) => f.endsWith('.status')).map((f) => f.slice(0, -'.status'.length));
console.log('\nTests by suite:');
for (const name of names.sort((a, b) => (a === 'typecheck' ? -1 : b === 'typecheck' ? 1 : a.localeCompare(b)))) {
  const [status, took, cpu] = read(`${name}.status`).trim().split(' ');
  const c = counts(read(`${name}.log`) ?? '');
  for (const k of Object.keys(totals)) totals[k] += c[k];
  const what = name === 'typecheck' ? '' : `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
  console.log(`  ${name.padEnd(16)} ${(status === '0' ? 'passed' : `failed (exit ${status})`).padEnd(16)} ${`${took} s`.padStart(6)} ${`${cpu ?? '?'} CPU-s`.padStart(10)}  ${what}`);
}
for (const name of optedOut()) {
  const files = Object.entries(SUITES[name].files).flatMap(([dir, list]) => list.map((f) => `${dir}/${f}`));
  console.log(`  skipped by SVC_TEST_SKIP: ${name} (${SUITES[name].about}): ${files.join(', ')}`);
}
const cpu = names.reduce((sum, name) => sum + Number(read(`${name}.status`).trim().split(' ')[2] ?? 0), 0);
if (seconds) {
  const database = postgresCpu ? `, and PostgreSQL ${postgresCpu} CPU-s` : '';
  console.log(`  the whole run took ${seconds} s; the suites used ${cpu} CPU-s${database} (two cores give ${2 * Number(seconds)})`);
}

// Vitest's own account of failures: from its "Failed Tests", "Failed Suites" or "Unhandled Errors" heading
// to its closing summary; pnpm's line for a script that failed outside a test runner; tsc's errors.
const heading = /⎯{3,} (Failed Tests|Failed Suites|Unhandled Errors?) /;
for (const name of names) {
  const text = read(`${name}.log`);
  if (!text || read(`${name}.status`).startsWith('0 ')) continue;
  const excerpt = [];
  let inside = false;
  for (const line of text.split('\n')) {
    if (heading.test(line)) inside = true;
    if (inside || line.includes('ERR_PNPM') || /error TS\d+/.test(line)) excerpt.push(line);
    if (inside && /^\s*Test Files /.test(line)) inside = false;
  }
  console.log(`\nFailures in ${name}:`);
  const shown = (excerpt.length > 0 ? excerpt : text.trimEnd().split('\n').slice(-40)).slice(0, 200);
  console.log(shown.join('\n'));
  if (excerpt.length > shown.length) console.log(`… and ${excerpt.length - shown.length} more lines, in its output above`);
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
