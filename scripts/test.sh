#!/usr/bin/env bash
# The whole test suite. First what it needs from the machine: the Debian packages the tests use
# (scripts/prerequisites.mjs) and a PostgreSQL server (the machine's, or the embedded one). Then two lanes side by
# side: the server's suite; and the type-checks, then the other packages' suites one after another (the release
# check and the examples build and read the packages' outputs, so they never run beside a build). The server's
# suite builds nothing they read, and its files spend much of their time waiting (jobs, child processes, timers).
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

# Nothing answering at the test database's address: the embedded PostgreSQL of `pnpm start` serves there instead.
node packages/server/node_modules/tsx/dist/cli.mjs packages/server/scripts/test-postgres.ts > "$logs/database.out" 2> "$logs/database.err" &
database=$!
until [ -s "$logs/database.out" ] || ! kill -0 "$database" 2>/dev/null; do sleep 0.1; done
case "$(head -n 1 "$logs/database.out")" in
  external) database= ;;
  embedded) echo "Nothing answers at ${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}: the tests run on the embedded PostgreSQL there (packages/server/.data/test-postgres)." ;;
  *) cat "$logs/database.err" >&2; echo "no PostgreSQL for the tests" >&2; exit 1 ;;
esac

# One package's tests: its output prefixed by its name, and its exit status and seconds kept for the summary.
suite() {
  local name=$1; shift
  local from=$SECONDS
  "$@" > >(tee "$logs/$name.log" | sed -u "s/^/[$name] /") 2>&1
  local status=$?
  echo "$status $((SECONDS - from))" > "$logs/$name.status"
  return "$status"
}

suite server pnpm --filter @svc/server test &
server=$!

status=0
suite typecheck pnpm -r typecheck || status=1
# Every package runs even when one fails, so that one run names every failure.
if [ "$status" -eq 0 ]; then
  for dir in packages/*/ examples/; do
    dir=${dir%/}
    [ "$dir" = packages/server ] && continue
    node -e "process.exit(require('./$dir/package.json').scripts?.test ? 0 : 1)" || continue
    suite "${dir##*/}" pnpm --dir "$dir" test || status=1
  done
fi
wait "$server" || status=1

node scripts/test-report.mjs "$logs" "$((SECONDS - started))"
exit "$status"
