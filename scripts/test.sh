#!/usr/bin/env bash
# The whole test suite: type-checks, then the server's suite beside the other packages' suites. The server's
# files spend much of their time waiting (jobs, child processes, timers), so the two groups side by side take
# about as long as the server's alone.
set -uo pipefail
cd "$(dirname "$0")/.."

pnpm -r typecheck || exit 1

# pipefail: the pipeline's status is the server suite's, not sed's.
pnpm --filter @svc/server test 2>&1 | sed -u 's/^/[server] /' &
server=$!
pnpm -r --workspace-concurrency=1 --filter '!@svc/server' test
others=$?
wait "$server"
server_status=$?

[ "$server_status" -eq 0 ] || echo "the server's tests failed" >&2
[ "$others" -eq 0 ] || echo "a package's tests failed" >&2
[ "$server_status" -eq 0 ] && [ "$others" -eq 0 ]
