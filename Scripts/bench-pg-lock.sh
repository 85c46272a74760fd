#!/usr/bin/env bash
# bench-pg-lock.sh [URL]: what PostgreSQL itself gives a serial workload on this machine, the
# anchor for `command-bench postgres clients` (issue 28: C clients' throughput not below one
# client's). pgbench (Debian's postgresql package) runs a transaction shaped like a history's
# change, 1 client then 8, each for T seconds (default 8), in that order, per shape:
#
#   one-trip:  BEGIN, the header row's SELECT … FOR UPDATE, an INSERT, the header's UPDATE and
#              COMMIT in one pipeline (the lock held across no client round trip);
#   two-trips: BEGIN and the lock in one pipeline, the rest in a second (the lock held across one
#              round trip of the client's: an album change's shape since the reads go with the lock
#              and the writes with the commit);
#   five-trips: each statement sent alone (the simple protocol);
#   early-release: two-trips with the lock released before the flush, as a history commits
#              (`SET LOCAL synchronous_commit TO off` before COMMIT, then a logical message's
#              transaction in the same pipeline, whose commit flushes the log).
#
# Prints transactions per second per run and the 8-to-1 ratio per shape. The server: the argument,
# else COMMANDKIT_POSTGRES_URL; the tables live in a schema of the script's own, dropped at the end.
set -euo pipefail
BASE="${1:-${COMMANDKIT_POSTGRES_URL:-}}"
[ -n "$BASE" ] || { echo "usage: Scripts/bench-pg-lock.sh URL (or COMMANDKIT_POSTGRES_URL)" >&2; exit 2; }
T="${T:-8}"
PGBENCH="$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -1 || true)"
[ -x "$PGBENCH" ] || { echo "pgbench not found (apt-get install postgresql)" >&2; exit 1; }
SCHEMA="bench_lock_$$"
case "$BASE" in
*\?*) URL="$BASE&options=-csearch_path%3D$SCHEMA" ;;
*) URL="$BASE?options=-csearch_path%3D$SCHEMA" ;;
esac
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"; psql -X -q "$BASE" -c "SET client_min_messages TO warning" -c "DROP SCHEMA $SCHEMA CASCADE" >/dev/null 2>&1 || true' EXIT
psql -X -q "$BASE" -c "CREATE SCHEMA $SCHEMA"
psql -X -q "$URL" -c "CREATE TABLE header (id int PRIMARY KEY, revision bigint)" \
    -c "INSERT INTO header VALUES (1, 0)" -c "CREATE TABLE entry (revision bigint, payload text)"

# A change's statements: the header's lock first, then what the change writes.
LOCK="BEGIN;
SELECT revision FROM header WHERE id = 1 FOR UPDATE;"
WRITES="INSERT INTO entry VALUES (1, 'a step');
UPDATE header SET revision = revision + 1 WHERE id = 1;
COMMIT;"
printf '%s\n' '\startpipeline' "$LOCK" "$WRITES" '\endpipeline' >"$WORK/one-trip.sql"
printf '%s\n' '\startpipeline' "$LOCK" '\endpipeline' '\startpipeline' "$WRITES" '\endpipeline' >"$WORK/two-trips.sql"
printf '%s\n' "$LOCK" "$WRITES" >"$WORK/five-trips.sql"
printf '%s\n' '\startpipeline' "$LOCK" '\endpipeline' '\startpipeline' "SET LOCAL synchronous_commit TO off;" "$WRITES" \
    "SELECT pg_logical_emit_message(true, 'bench', '');" '\endpipeline' >"$WORK/early-release.sql"

for shape in one-trip two-trips five-trips early-release; do
    mode=extended
    [ "$shape" = five-trips ] && mode=simple
    declare -A tps=()
    for clients in 1 8; do
        tps[$clients]="$("$PGBENCH" -n -M "$mode" -f "$WORK/$shape.sql" -c "$clients" -j "$clients" -T "$T" "$URL" 2>&1 |
            sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
        echo "pgbench $shape clients=$clients tps=${tps[$clients]}"
    done
    awk -v shape="$shape" -v one="${tps[1]}" -v many="${tps[8]}" \
        'BEGIN { printf "pgbench %s throughput_ratio_8_to_1=%.2f\n", shape, many / one }'
done
