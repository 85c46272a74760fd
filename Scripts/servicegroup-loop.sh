#!/usr/bin/env bash
# Runs the ServiceGroup fixture (a launch under AppInvokerService, Sources/servicegroup-fixture)
# N times per scenario with real signals, and counts every run that stopped out of order, did not
# escalate, or exited with the wrong status (issue 25: "100 runs in a loop script, 0 wrong").
#
#     Scripts/servicegroup-loop.sh [N]      # default 100
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/offline-mirrors.sh
runs="${1:-100}"
swift build --traits ServiceLifecycleIntegration --product servicegroup-fixture >/dev/null
fixture="$(swift build --traits ServiceLifecycleIntegration --show-bin-path)/servicegroup-fixture"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Starts the fixture on scenario $1, output in $work/out; sets $pid.
start() {
    : >"$work/out"
    "$fixture" --scenario "$1" >"$work/out" 2>&1 &
    pid=$!
}
# Waits (up to 60 s, a busy machine) for a line $1 in the output.
wait_for() {
    for _ in $(seq 600); do
        grep -qx "$1" "$work/out" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}
# The line number of $1 in the output (empty when absent).
line_of() { grep -nx "$1" "$work/out" | head -1 | cut -d: -f1; }

wrong=0
for run in $(seq "$runs"); do
    # Reverse dependency order: api stops before upstream, in the output and in the report.
    start ordered
    wait_for ready || { echo "run $run ordered: never ready"; wrong=$((wrong + 1)); kill -9 "$pid"; continue; }
    kill -TERM "$pid"
    status=0; wait "$pid" || status=$?
    api="$(line_of "api stopped")"; upstream="$(line_of "upstream stopped")"
    if [ "$status" != 0 ] || [ -z "$api" ] || [ -z "$upstream" ] || [ "$api" -gt "$upstream" ] \
        || ! grep -qx "escalation none" "$work/out"; then
        echo "run $run ordered: status $status"; cat "$work/out"; wrong=$((wrong + 1))
    fi
    # A second signal cuts the drain short.
    start slow-drain
    wait_for ready && kill -TERM "$pid" && wait_for "api draining" && kill -INT "$pid"
    status=0; wait "$pid" || status=$?
    if [ "$status" != 0 ] || ! grep -qx "step stop api: cancelled (escalated)" "$work/out"; then
        echo "run $run slow-drain: status $status"; cat "$work/out"; wrong=$((wrong + 1))
    fi
    # A signal before readiness: interrupted, 128 + 15.
    start slow-launch
    wait_for connecting && kill -TERM "$pid"
    status=0; wait "$pid" || status=$?
    if [ "$status" != 143 ] || ! grep -qx "error interrupted" "$work/out" || grep -qx ready "$work/out"; then
        echo "run $run slow-launch: status $status"; cat "$work/out"; wrong=$((wrong + 1))
    fi
done
echo "servicegroup-loop: $runs runs of 3 scenarios, $wrong wrong"
[ "$wrong" = 0 ]
