#!/usr/bin/env bash
# The long forms of the reliability suite (RELIABILITY.md): many more damaged copies, more and
# longer concurrent writers, and each fuzz target for longer. Prints the figures RELIABILITY.md
# records. The history checker's long run is Scripts/checker-long.sh.
#
#   Scripts/reliability-long.sh [fuzz-seconds-per-target]     (default 600)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

seconds="${1:-600}"
# These suites are the app package's (App/) since the libraries and the app were split.
swift build --package-path App --build-tests -Xswiftc -warnings-as-errors 2>&1 | grep -v -e '^\[' -e 'Cannot export local symbol' || true
start=$(date +%s)
RELIABILITY_LONG=1 SELECTOR_RACE_ROUNDS=100 swift test --package-path App --skip-build \
    --filter 'DamagedStoreTests|DamagedLibraryTests|ConcurrentWritersTests|SelectorRaceTests' 2>&1 \
    | grep -E 'DamagedStoreTests:|DamagedLibraryTests:|ConcurrentWritersTests:|✘|Test run'
echo "reliability-long: tests took $(( $(date +%s) - start ))s"
Scripts/fuzz.sh "$seconds"
