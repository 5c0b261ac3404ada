#!/usr/bin/env bash
# The whole test suite, in two lanes side by side: the server's suite; and the type-checks, then the other
# packages' suites one after another (the release check and the examples build and read the packages' outputs,
# so they never run beside a build). The server's suite builds nothing they read, and its files spend much of
# their time waiting (jobs, child processes, timers), as the examples do on real heartbeats.
set -uo pipefail
cd "$(dirname "$0")/.."

# pipefail: the pipeline's status is the server suite's, not sed's.
pnpm --filter @svc/server test 2>&1 | sed -u 's/^/[server] /' &
server=$!
pnpm -r typecheck
typecheck=$?
others=1
[ "$typecheck" -eq 0 ] && pnpm -r --workspace-concurrency=1 --filter '!@svc/server' test && others=0
wait "$server"
server_status=$?

[ "$typecheck" -eq 0 ] || echo "a package does not type-check" >&2
[ "$server_status" -eq 0 ] || echo "the server's tests failed" >&2
[ "$typecheck" -ne 0 ] || [ "$others" -eq 0 ] || echo "a package's tests failed" >&2
[ "$typecheck" -eq 0 ] && [ "$server_status" -eq 0 ] && [ "$others" -eq 0 ]
