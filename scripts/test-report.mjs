// Prints each package's test status and time, then what the test runners said of any failure: with two lanes
// side by side, a failure is otherwise far up the output, among the other lane's lines.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const logs = process.argv[2];
const ansi = /\u001b\[[0-9;]*m/g;
const read = (file) => (existsSync(join(logs, file)) ? readFileSync(join(logs, file), 'utf8').replace(ansi, '') : undefined);

const rows = [];
const server = read('server.status');
if (server) {
  const [status, seconds] = server.trim().split(' ');
  rows.push(['@svc/server', status === '0' ? 'passed' : `failed (exit ${status})`, Number(seconds)]);
}
const summary = read('summary.json');
if (summary) {
  for (const [dir, result] of Object.entries(JSON.parse(summary).executionStatus)) {
    rows.push([JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name, result.status, Math.round((result.duration ?? 0) / 1000)]);
  }
}

console.log('\nTests by package:');
for (const [name, status, seconds] of rows) console.log(`  ${name.padEnd(22)} ${status.padEnd(18)} ${seconds} s`);

// Vitest's own account of failures: from its "Failed Tests", "Failed Suites" or "Unhandled Errors" heading
// to its closing summary; pnpm's line for a script that failed outside a test runner.
const heading = /⎯{3,} (Failed Tests|Failed Suites|Unhandled Errors?) /;
for (const lane of ['server', 'others']) {
  const text = read(`${lane}.log`);
  if (!text) continue;
  const excerpt = [];
  let inside = false;
  for (const line of text.split('\n')) {
    if (heading.test(line)) inside = true;
    if (inside || line.includes('ERR_PNPM')) excerpt.push(line);
    if (inside && /^\s*Test Files /.test(line)) inside = false;
  }
  if (excerpt.length === 0) continue;
  console.log(`\nFailures in the ${lane === 'server' ? "server's suite" : "other packages' suites"}:`);
  const shown = excerpt.slice(0, 200);
  console.log(shown.join('\n'));
  if (excerpt.length > shown.length) console.log(`… and ${excerpt.length - shown.length} more lines, in the lane's output above`);
}
