#!/usr/bin/env bash
# The whole test suite. First what it needs from the machine: the Debian packages the tests use
# (scripts/prerequisites.mjs) and a PostgreSQL server (the machine's, or the embedded one). Then three lanes side by
# side, since each spends much of its time waiting (jobs, child processes, timers, installs):
#   - the server's suite, which builds nothing the others read;
#   - the suites that build the published packages and read their outputs, one after another, so that no build ever
#     runs beside a reader of the same files: the browser SDK, the release check, then the examples;
#   - the type-checks, then the suites that build nothing published.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

logs=$(mktemp -d)
database=
cleanup() {
  [ -n "$database" ] && kill "$database" 2>/dev/null && wait "$database" 2>/dev/null
  rm -rf "$logs"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

node scripts/prerequisites.mjs || exit 1

# The CPU seconds of the oldest PostgreSQL server process on this machine and of the backends it has reaped: the
# database's share of the run, reported beside the suites'.
postgres_cpu() {
  local pid
  pid=$(pgrep -o -x postgres 2>/dev/null) && awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15 + $16 + $17) / hz}' "/proc/$pid/stat" 2>/dev/null
}

# Nothing answering at the test database's address: the embedded PostgreSQL of `pnpm start` serves there instead.
node packages/server/node_modules/tsx/dist/cli.mjs packages/server/scripts/test-postgres.ts > "$logs/database.out" 2> "$logs/database.err" &
database=$!
until [ -s "$logs/database.out" ] || ! kill -0 "$database" 2>/dev/null; do sleep 0.1; done
case "$(head -n 1 "$logs/database.out")" in
  external) database= ;;
  embedded) echo "Nothing answers at ${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}: the tests run on the embedded PostgreSQL there (packages/server/.data/test-postgres)." ;;
  *) cat "$logs/database.err" >&2; echo "no PostgreSQL for the tests" >&2; exit 1 ;;
esac
postgres_from=$(postgres_cpu)

# One package's tests: its output prefixed by its name, and its exit status and seconds kept for the summary.
# Its CPU time too (its processes and those they waited for), since two cores are what the lanes share.
suite() {
  local name=$1; shift
  local from=$SECONDS
  # In a subshell of its own: `time` counts the children its shell reaped meanwhile, and the main shell also reaps
  # the other lanes.
  (TIMEFORMAT='%U %S'; time "$@" > >(tee "$logs/$name.log" | sed -u "s/^/[$name] /") 2>&1) 2> "$logs/$name.cpu"
  local status=$?
  echo "$status $((SECONDS - from)) $(awk '{printf "%d", $1 + $2}' "$logs/$name.cpu")" > "$logs/$name.status"
  return "$status"
}

suite server pnpm --filter @svc/server test &
server=$!

# One lane's suites in order; every one runs even when another fails, so that one run names every failure.
lane() {
  local failed=0 dir
  for dir in "$@"; do
    node -e "process.exit(require('./$dir/package.json').scripts?.test ? 0 : 1)" || continue
    suite "${dir##*/}" pnpm --dir "$dir" test || failed=1
  done
  return "$failed"
}

lane packages/sdk-browser packages/release-check examples &
builders=$!

status=0
# The examples' own type-check builds the browser SDK: it runs in the builders' lane, as part of their test.
if suite typecheck pnpm -r --filter '!examples' typecheck; then
  lane packages/contract packages/sdk-node packages/webhook-verify packages/console || status=1
else
  status=1
fi
wait "$builders" || status=1
wait "$server" || status=1

postgres_to=$(postgres_cpu)
node scripts/test-report.mjs "$logs" "$((SECONDS - started))" "$([ -n "$postgres_from" ] && [ -n "$postgres_to" ] && echo $((postgres_to - postgres_from)))"
exit "$status"
