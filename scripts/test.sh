#!/usr/bin/env bash
# The whole test suite, in three lanes side by side: the server's suite; the release check (packing, npm installs
# and the oldest Node from the registry, mostly waiting on the network and the disk); and the type-checks, then
# the other packages' suites. Each lane spends much of its time waiting (jobs, child processes, timers, installs),
# so together they take little longer than the longest alone.
set -uo pipefail
cd "$(dirname "$0")/.."

# pipefail: each pipeline's status is its command's, not sed's.
pnpm --filter @svc/server test 2>&1 | sed -u 's/^/[server] /' &
server=$!
pnpm --filter @svc/release-check test 2>&1 | sed -u 's/^/[release-check] /' &
release=$!
pnpm -r typecheck && pnpm -r --workspace-concurrency=1 --filter '!@svc/server' --filter '!@svc/release-check' test
others=$?
wait "$server"
server_status=$?
wait "$release"
release_status=$?

[ "$server_status" -eq 0 ] || echo "the server's tests failed" >&2
[ "$release_status" -eq 0 ] || echo "the release check failed" >&2
[ "$others" -eq 0 ] || echo "the type-checks or a package's tests failed" >&2
[ "$server_status" -eq 0 ] && [ "$release_status" -eq 0 ] && [ "$others" -eq 0 ]
