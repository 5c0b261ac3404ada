#!/usr/bin/env bash
# The whole test suite: the server's suite beside the type-checks followed by the other packages' suites. The
# server's files spend much of their time waiting (jobs, child processes, timers), so the other lane, type-checks
# included, takes about as long as the server's suite alone.
set -uo pipefail
cd "$(dirname "$0")/.."

# pipefail: the pipeline's status is the server suite's, not sed's.
pnpm --filter @svc/server test 2>&1 | sed -u 's/^/[server] /' &
server=$!
pnpm -r typecheck
typecheck=$?
others=0
if [ "$typecheck" -eq 0 ]; then
  pnpm -r --workspace-concurrency=1 --filter '!@svc/server' test
  others=$?
fi
wait "$server"
server_status=$?

[ "$typecheck" -eq 0 ] || echo "a package does not type-check" >&2
[ "$server_status" -eq 0 ] || echo "the server's tests failed" >&2
[ "$others" -eq 0 ] || echo "a package's tests failed" >&2
[ "$typecheck" -eq 0 ] && [ "$server_status" -eq 0 ] && [ "$others" -eq 0 ]
