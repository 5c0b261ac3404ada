#!/bin/sh
# HAProxy's external check for PostgreSQL (docs/self-hosting.md, Failover): succeeds only on the server that
# takes writes now, so HAProxy sends every connection to the primary that pg_auto_failover chose.
# HAProxy passes the server's address and port as $3 and $4. The role needs LOGIN only (no privileges);
# change PGUSER here, and give its password in the .pgpass of the user HAProxy runs as, when it has one.
PGUSER=${PGUSER:-postgres}
PGDATABASE=${PGDATABASE:-postgres}
PGCONNECT_TIMEOUT=2
export PGUSER PGDATABASE PGCONNECT_TIMEOUT
# As libpq's target_session_attrs=read-write asks: a standby, and a standby being promoted while the old primary
# may still take writes (pg_auto_failover holds it read-only until then), both answer "on".
read_only=$(psql -X -A -t -w -h "$3" -p "$4" -c 'SHOW transaction_read_only' 2>/dev/null) || exit 1
[ "$read_only" = "off" ]
