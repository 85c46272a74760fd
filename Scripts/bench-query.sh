#!/usr/bin/env bash
# bench-query.sh [RUNS]: `albums list QUERY` beside `sqlite3` running the equivalent SELECT on the
# same 100,005-album library, in one run (issue 26's speed target: albums ≤ 2× sqlite3).
#
# Builds a release albums (App/.build-bench) unless ALBUMS is set, makes a library of the five
# seed albums plus 100,000 imported ones (artists "Artist 0".."Artist 99", years 1950..2019),
# checkpoints it, then alternates the two commands RUNS times (default 21) and prints each one's
# median wall time (whole processes, output to /dev/null) and the ratio. The query is
# `artist:"artist 7" year:1990..1999`; the SELECT prints the same rows with their positions.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-21}"
if [ -z "${ALBUMS:-}" ]; then
    "$ROOT/Scripts/offline-mirrors.sh"
    swift build --package-path "$ROOT/App" -c release --product albums --scratch-path "$ROOT/App/.build-bench" \
        2>&1 | grep -v '^\[' || true
    ALBUMS="$ROOT/App/.build-bench/release/albums"
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/bench-query.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
DB="$WORK/library.sqlite"
python3 - "$WORK/albums.json" <<'PY'
import json, sys
albums = [{"title": f"Album {n}", "artist": f"Artist {n % 100}", "genre": ["Rock", "Jazz", "Pop"][n % 3],
           "year": 1950 + n % 70} for n in range(100_000)]
json.dump(albums, open(sys.argv[1], "w"))
PY
"$ALBUMS" init "$DB" >/dev/null
"$ALBUMS" --db "$DB" import "$WORK/albums.json" >/dev/null
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
QUERY=('artist:"artist 7"' 'year:1990..1999')
SQL="SELECT position, title, artist, genre, year FROM (SELECT row_number() OVER (ORDER BY sort_key) AS position, * FROM album) WHERE instr(lower(artist), 'artist 7') > 0 AND year BETWEEN 1990 AND 1999"
# The same rows without their positions: what a plain index-free scan costs sqlite3.
PLAIN="SELECT title, artist, genre, year FROM album WHERE instr(lower(artist), 'artist 7') > 0 AND year BETWEEN 1990 AND 1999 ORDER BY sort_key"
a_rows=$("$ALBUMS" --db "$DB" list "${QUERY[@]}" | wc -l)
s_rows=$(sqlite3 "$DB" "$SQL" | wc -l)
echo "bench-query: $a_rows rows from albums, $s_rows from sqlite3 ($("$ALBUMS" --version 2>/dev/null | head -1))"
now() { date +%s%N; }
albums_times=()
sqlite_times=()
plain_times=()
for _ in $(seq "$RUNS"); do
    start=$(now); sqlite3 "$DB" "$PLAIN" >/dev/null; plain_times+=($(( $(now) - start )))
    start=$(now); "$ALBUMS" --db "$DB" list "${QUERY[@]}" >/dev/null; albums_times+=($(( $(now) - start )))
    start=$(now); sqlite3 "$DB" "$SQL" >/dev/null; sqlite_times+=($(( $(now) - start )))
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1e6 }'; }
a=$(median "${albums_times[@]}")
s=$(median "${sqlite_times[@]}")
p=$(median "${plain_times[@]}")
echo "bench-query: sqlite3 without positions: $p ms; ratio $(awk -v a="$a" -v p="$p" 'BEGIN { printf "%.2f", a / p }')"
echo "bench-query: albums list ${QUERY[*]}: $a ms; sqlite3 SELECT with positions: $s ms; ratio $(awk -v a="$a" -v s="$s" 'BEGIN { printf "%.2f", a / s }') (median of $RUNS, load $(cut -d' ' -f1-3 /proc/loadavg))"
