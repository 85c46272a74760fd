#!/usr/bin/env bash
# bench-undo.sh [N ...]: CommandKit's UndoStack beside the undo/redo peers, in one run.
#
# For every repetition, N and workload: ../shared/bench/peers/run-peers.sh (Qt QUndoStack,
# Swing UndoManager, the Swift closure baseline; it installs Qt and a JDK itself when run as
# root) and then `command-bench undo` (peer=commandkit) with the same workload and N, wrapped in
# /usr/bin/time -v exactly as run-peers.sh wraps the peers. Interleaving keeps every peer under
# the same machine load. Then prints the peers' summary table (with a commandkit column) and
# our ratios to the peers.
#
# Arguments: N values (default: 100000 1000000 10000000; W3 flatness needs 10^5..10^7).
# Environment (optional):
#   PEERS_DIR   the peers folder (default: ../shared/bench/peers next to the package)
#   BUILD_DIR   where the peers are built (default: a fresh temporary folder)
#   REPS        repetitions of the whole matrix (default 1), passed to run-peers.sh too
#   WORKLOADS   workloads (default "W1 W2 W3 W4"), passed to run-peers.sh too
#   OUT         raw output file (default: .build/bench-undo-<UTC time>.txt)
# Exit status: 0 when every run passed its counter check.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/Scripts/offline-mirrors.sh"
PEERS_DIR="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
[ -d "$PEERS_DIR" ] || PEERS_DIR=/work/shared/bench/peers
[ -x "$PEERS_DIR/run-peers.sh" ] || { echo "peers not found (set PEERS_DIR)" >&2; exit 1; }
BUILD_DIR="${BUILD_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/undo-bench-peers.XXXXXX")}"
REPS="${REPS:-1}"
WORKLOADS="${WORKLOADS:-W1 W2 W3 W4}"
if [ "$#" -gt 0 ]; then NS=("$@"); else NS=(100000 1000000 10000000); fi
mkdir -p "$ROOT/.build"
OUT="${OUT:-$ROOT/.build/bench-undo-$(date -u +%Y%m%dT%H%M%SZ).txt}"

cd "$ROOT"
echo "building command-bench (release)" >&2
# With the trait, as every build here: without it SwiftPM rewrites Package.resolved without its pins.
swift build --package-path App -c release --product command-bench >&2
BIN="$(swift build --package-path App -c release --show-bin-path)/command-bench"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
failed=0

# Same wrapping as run-peers.sh's run_one: program lines, then max_rss_kb; sets RSS_KB.
run_ours() {
    local w="$1" n="$2" rc=0
    /usr/bin/time -v -o "$TMP/time" "$BIN" undo "$w" "$n" >"$TMP/out" 2>"$TMP/err" || rc=$?
    cat "$TMP/out"
    if [ "$rc" -ne 0 ] || ! grep -q 'check=ok' "$TMP/out"; then
        failed=1
        echo "# FAILED peer=commandkit workload=$w n=$n rc=$rc: $(tail -3 "$TMP/err" | tr '\n' ' ')"
    fi
    RSS_KB="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time")"
    echo "peer=commandkit workload=$w n=$n max_rss_kb=$RSS_KB"
}

{
    echo "# bench-undo.sh: for each rep, N and workload, run-peers.sh (qt, swing, swift-baseline) then peer=commandkit ($BIN), interleaved"
    echo "# commandkit=\"$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)\" build=\"swift build -c release\" load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
    run_ours W1 0 >"$TMP/base"
    BASE_RSS="$RSS_KB"
    grep -E 'max_rss_kb|FAILED' "$TMP/base"
    for rep in $(seq 1 "$REPS"); do
        echo "# bench-undo rep=$rep"
        for n in "${NS[@]}"; do
            for w in $WORKLOADS; do
                # One peers' run per (N, workload) keeps the peers and ours under the same load.
                # (run-peers.sh repeats its N=0 RSS baselines each time; summarize.py ignores N=0.)
                BUILD_DIR="$BUILD_DIR" REPS=1 WORKLOADS="$w" "$PEERS_DIR/run-peers.sh" "$n" || failed=1
                run_ours "$w" "$n"
                if [ "$w" = W1 ] && [ "$n" -gt 0 ]; then
                    awk -v n="$n" -v r="$RSS_KB" -v b="$BASE_RSS" 'BEGIN {
                        printf "peer=commandkit workload=W1 n=%d rss_bytes_per_entry=%.1f\n", n, (r - b) * 1024.0 / n }'
                fi
            done
        done
    done
    echo "# load_after=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
} | tee "$OUT"

echo
echo "raw output: $OUT"
echo
# The peers' summarizer, with a commandkit column (its peer list is fixed; extend it in-process).
python3 - "$PEERS_DIR" "$OUT" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import summarize
summarize.PEERS.append("commandkit")
summarize.main(sys.argv[2:])
PY
echo
python3 - "$PEERS_DIR" "$OUT" <<'PY'
import statistics, sys
sys.path.insert(0, sys.argv[1])
import summarize
samples, _ = summarize.load(sys.argv[2:])
med = lambda k: statistics.median(samples[k]) if samples.get(k) else None
ns = sorted({k[2] for k in samples if k[2] > 0})
print("### commandkit ratios (median ns/op or bytes; < 1 means commandkit is lower)\n")
print("| N | workload | metric | commandkit | ÷ swift-baseline | ÷ qt | ÷ swing |")
print("|---|---|---|---:|---:|---:|---:|")
for n in ns:
    rows = [(w, "ns:total", "total ns/op") for w in summarize.PHASES]
    rows += [("W1", "heap_bytes_per_entry", "heap bytes/entry"), ("W1", "rss_bytes_per_entry", "RSS bytes/entry")]
    for w, metric, label in rows:
        ours = med(("commandkit", w, n, metric))
        if ours is None:
            continue
        cells = []
        for peer in ("swift-baseline", "qt", "swing"):
            theirs = med((peer, w, n, metric))
            cells.append(f"{ours / theirs:.2f}" if theirs else "–")
        print(f"| {n:,} | {w} | {label} | {ours:.1f} | " + " | ".join(cells) + " |")
w3 = [(n, med(("commandkit", "W3", n, "ns:push"))) for n in ns]
w3 = [(n, v) for n, v in w3 if v is not None]
if len(w3) >= 2:
    base = w3[0][1]
    print("\nW3 push ns/op by N (flatness, ratio to the smallest N): " +
          ", ".join(f"{n:,}: {v:.1f} ({v / base:.2f})" for n, v in w3))
PY
exit "$failed"
