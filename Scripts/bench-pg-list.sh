#!/usr/bin/env bash
# bench-pg-list.sh [URL]: `albums --db URL list` against psql printing the same table, on a library
# of 5 albums and one of 100,005, in one run (issue 28's target: albums ≤ 2× psql).
#
#     swift build -c release --package-path App --traits PostgreSQL --product albums
#     Scripts/postgres.sh start        # prints a URL; or any server you may create schemas on
#     Scripts/bench-pg-list.sh postgresql://commandkit@127.0.0.1:54329/commandkit_test
#
# The server: the argument, else COMMANDKIT_POSTGRES_URL. Everything lives in a schema of the
# script's own (the URL's `options=-csearch_path%3D…`, as `command-bench postgres` does), dropped at
# the end. `albums init` creates the library with its 5 default albums; the large library is the
# same one plus 100,000 albums added by ONE SQL statement (`INSERT … SELECT … FROM
# generate_series`), each with its sort key (the library's gap, 2^20, after the last) and its
# search text as SearchText.of(album) stores it (folded title, artist and genre, one per line:
# the generated values are lower-case ASCII, whose folding is themselves).
#
# What is timed, each side N times (default 11), interleaved (albums, psql, albums, psql, …), as
# wall-clock time of the whole process with its output sent to /dev/null:
#   albums: albums --db URL list
#   psql:   psql -X -q URL -c "SELECT row_number() OVER (ORDER BY sort_key), title, artist, genre,
#           year FROM album ORDER BY sort_key"
# Both print one aligned line per album with its position, title, artist, genre and year, in
# library order (psql's aligned format pads its columns as `list` does, and adds a header, a rule
# and a row count; `list` also reads the current album to mark it with `*`).
#
# Environment (optional): N (repetitions, default 11), ALBUMS (the albums binary, default the
# release build's), EXTRA (albums added to the large library, default 100000).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE="${1:-${COMMANDKIT_POSTGRES_URL:-}}"
[ -n "$BASE" ] || { echo "usage: Scripts/bench-pg-list.sh URL (or COMMANDKIT_POSTGRES_URL)" >&2; exit 2; }
N="${N:-11}"
EXTRA="${EXTRA:-100000}"
ALBUMS="${ALBUMS:-$ROOT/App/.build/release/albums}"
[ -x "$ALBUMS" ] || {
    echo "no $ALBUMS: swift build -c release --package-path App --traits PostgreSQL --product albums" >&2
    exit 1
}
command -v psql >/dev/null || { echo "psql not found (apt-get install postgresql-client)" >&2; exit 1; }

SCHEMA="bench_list_$$"
case "$BASE" in
*\?*) URL="$BASE&options=-csearch_path%3D$SCHEMA" ;;
*) URL="$BASE?options=-csearch_path%3D$SCHEMA" ;;
esac
SQL="SELECT row_number() OVER (ORDER BY sort_key), title, artist, genre, year FROM album ORDER BY sort_key"

psql -X -q -v ON_ERROR_STOP=1 "$BASE" -c "CREATE SCHEMA $SCHEMA"
trap 'psql -X -q "$BASE" -c "SET client_min_messages TO warning" -c "DROP SCHEMA $SCHEMA CASCADE" >/dev/null 2>&1 || true' EXIT
"$ALBUMS" init "$URL" >/dev/null

now() { date +%s%N; }

# Prints the median of its arguments (nanoseconds), in milliseconds with one decimal.
median_ms() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f", m / 1e6 }'
}

measure() {
    local label="$1" count albums_ns=() psql_ns=() start
    count="$(psql -X -q -t -A "$URL" -c "SELECT count(*) FROM album")"
    # The outputs once, untimed: both must list every album.
    local albums_lines psql_lines
    albums_lines="$("$ALBUMS" --db "$URL" list | wc -l)"
    psql_lines="$(psql -X -q -t -A "$URL" -c "$SQL" | wc -l)"
    if [ "$albums_lines" -ne "$count" ] || [ "$psql_lines" -ne "$count" ]; then
        echo "$label: $count albums, but albums printed $albums_lines lines and psql $psql_lines" >&2
        exit 1
    fi
    for _ in $(seq "$N"); do
        start="$(now)"
        "$ALBUMS" --db "$URL" list >/dev/null
        albums_ns+=($(($(now) - start)))
        start="$(now)"
        psql -X -q "$URL" -c "$SQL" >/dev/null
        psql_ns+=($(($(now) - start)))
    done
    local a p
    a="$(median_ms "${albums_ns[@]}")"
    p="$(median_ms "${psql_ns[@]}")"
    echo "pg-list library=$label albums=$count runs=$N albums_median_ms=$a psql_median_ms=$p" \
        "ratio=$(awk -v a="$a" -v p="$p" 'BEGIN { printf "%.2f", a / p }')"
}

echo "# bench-pg-list.sh: $ALBUMS against psql ($(psql --version)), schema $SCHEMA," \
    "load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
measure small

psql -X -q -v ON_ERROR_STOP=1 "$URL" -c "
    INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
    SELECT upper(md5('bench-album-' || i)::uuid::text),
           (SELECT max(sort_key) FROM album) + i::bigint * 1048576,
           'album number ' || i,
           'artist ' || (i % 997),
           (ARRAY['pop', 'rock', 'jazz', 'folk', 'classical'])[1 + i % 5],
           1950 + i % 70,
           NULL,
           'album number ' || i || chr(10) || 'artist ' || (i % 997) || chr(10)
               || (ARRAY['pop', 'rock', 'jazz', 'folk', 'classical'])[1 + i % 5]
    FROM generate_series(1, $EXTRA) AS i" -c "ANALYZE album"
measure large
echo "# load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
