#!/usr/bin/env bash
# The history checker's long run (RELIABILITY.md, "History checker"): HistoryCheckerTests' random
# rounds for SECONDS seconds of operations (default 1800, or HISTORY_CHECKER_SECONDS) from a random
# seed, printed first so that a failure can be replayed with HISTORY_CHECKER_SEED=<its round's seed>.
# HISTORY_CHECKER_ALBUMS (another albums to check) and HISTORY_CHECKER_ORDER pass through.
#
#   Scripts/checker-long.sh [seconds]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

export HISTORY_CHECKER_SECONDS="${1:-${HISTORY_CHECKER_SECONDS:-1800}}"
export HISTORY_CHECKER_SEED="${HISTORY_CHECKER_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}"
echo "checker-long: seed $HISTORY_CHECKER_SEED, $HISTORY_CHECKER_SECONDS s"
if ! log=$(swift build --package-path App --build-tests -Xswiftc -warnings-as-errors 2>&1); then
    echo "$log" >&2
    exit 1
fi
swift test --package-path App --skip-build --filter 'HistoryCheckerTests/everyAcknowledgedChange' 2>&1 \
    | grep -E '^HistoryChecker|^  |✘|Test run'
