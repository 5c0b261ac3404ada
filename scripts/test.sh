#!/usr/bin/env bash
# The whole test suite, in two lanes side by side: the server's suite; and the type-checks, then the other
# packages' suites one after another (the release check and the examples build and read the packages' outputs,
# so they never run beside a build). The server's suite builds nothing they read, and its files spend much of
# their time waiting (jobs, child processes, timers), as the examples do on real heartbeats.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# pipefail: the pipeline's status is the server suite's, not tee's or sed's.
(
  started=$SECONDS
  pnpm --filter @svc/server test 2>&1 | tee "$logs/server.log" | sed -u 's/^/[server] /'
  status=$?
  echo "$status $((SECONDS - started))" > "$logs/server.status"
  exit "$status"
) &
server=$!

pnpm -r typecheck
typecheck=$?
others=1
# Every package runs even when one fails, so that one run names every failure.
if [ "$typecheck" -eq 0 ]; then
  pnpm -r --workspace-concurrency=1 --no-bail --report-summary --filter '!@svc/server' test 2>&1 | tee "$logs/others.log"
  others=$?
  [ -f pnpm-exec-summary.json ] && mv pnpm-exec-summary.json "$logs/summary.json"
fi
wait "$server"
server_status=$?

# The failures again, at the end of the output, where a CI excerpt shows them.
node scripts/test-report.mjs "$logs"

[ "$typecheck" -eq 0 ] || echo "a package does not type-check" >&2
[ "$server_status" -eq 0 ] || echo "the server's tests failed" >&2
[ "$typecheck" -ne 0 ] || [ "$others" -eq 0 ] || echo "a package's tests failed" >&2
[ "$typecheck" -eq 0 ] && [ "$server_status" -eq 0 ] && [ "$others" -eq 0 ]
