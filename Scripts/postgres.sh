#!/usr/bin/env bash
# A private PostgreSQL server for the tests: `Scripts/postgres.sh start` initialises one in a
# temporary folder (as the postgres user when run as root: initdb refuses root), listening on
# 127.0.0.1 and a socket in that folder only, and prints its URL; `restart` restarts it fast (its
# sessions ended, as a restart or failover does); `crash` kills it (`immediate`: every server
# process quits at once, what is in its memory and not on disk is lost) and starts it again, which
# recovers from its log; `stop` stops it and removes the folder. Debian's `postgresql` package
# (any version; CI installs 15) provides the server.
# Logins are trusted on 127.0.0.1, except the role `refused`, whose password is checked (the
# tests of a refused login).
set -euo pipefail
dir=${COMMANDKIT_POSTGRES_DIR:-/tmp/commandkit-postgres}
port=${COMMANDKIT_POSTGRES_PORT:-54329}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "postgres: no PostgreSQL server installed (apt-get install postgresql)" >&2; exit 1; }
url="postgresql://commandkit@127.0.0.1:$port/commandkit_test"
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
start_server() {
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir" start >/dev/null
}

case "${1:-}" in
start)
    if [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        echo "$url"
        exit 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U commandkit --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    # Checked before the trusted lines: the first matching line decides.
    { echo "host all refused 127.0.0.1/32 scram-sha-256"; cat "$dir/data/pg_hba.conf"; } >"$dir/hba"
    cat "$dir/hba" >"$dir/data/pg_hba.conf"
    start_server
    as_owner "$bin/psql" -q -h 127.0.0.1 -p "$port" -U commandkit -d postgres \
        -c "CREATE DATABASE commandkit_test" -c "CREATE ROLE refused LOGIN PASSWORD 'the-right-one'" >/dev/null
    echo "$url"
    ;;
restart)
    # A fast restart (sessions ended, as a server's restart or failover does), same options.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
    ;;
crash)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 60 stop >/dev/null
    start_server
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: Scripts/postgres.sh start|restart|crash|stop" >&2
    exit 2
    ;;
esac
