#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer and AddressSanitizer (with LeakSanitizer).
#
#   Scripts/sanitize.sh [thread|address]...     (default: both)
#   SANITIZE_PACKAGES=. Scripts/sanitize.sh      (the libraries only, as .ci/run does; default: ". App")
#
# Separate scratch paths (.build-tsan, .build-asan, in each package) keep the normal build untouched. ThreadSanitizer
# runs with halt_on_error=1, so the first race fails the run even when every test passes.
# AddressSanitizer leak reports inside the toolchain's libraries are suppressed by
# Scripts/lsan-suppressions.txt (each entry explained there); any other leak fails the run.
# Reports go to files (<scratch>/sanitizer-reports), printed at the end: a report from a child
# process (an `albums` run inside tmux) would otherwise scroll off its pane unread.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

sanitizers=("${@:-thread address}")
# shellcheck disable=SC2068
for sanitizer in ${sanitizers[@]}; do
    case "$sanitizer" in
        thread) scratch=.build-tsan ;;
        address) scratch=.build-asan ;;
        *) echo "sanitize: unknown sanitizer $sanitizer (thread or address)" >&2; exit 2 ;;
    esac
    # The libraries (with the trait, as Scripts/test.sh: LaunchKitServiceLifecycle is tested under
    # the sanitizers too), then the app's package in App/.
    # shellcheck disable=SC2086
    for package in ${SANITIZE_PACKAGES:-. App}; do
        flags=(--sanitize="$sanitizer" --package-path "$package" --scratch-path "$package/$scratch")
        if [ "$package" = . ]; then flags+=(--traits ServiceLifecycleIntegration); fi
        echo "sanitize: $sanitizer: building $package"
        swift build --build-tests "${flags[@]}" 2>&1 \
            | grep -v -e '^\[' -e 'ld.gold: warning: Cannot export local symbol' || true
        echo "sanitize: $sanitizer: testing $package"
        reports="$PWD/$package/$scratch/sanitizer-reports"
        rm -rf "$reports" && mkdir -p "$reports"
        start=$(date +%s)
        status=0
        TSAN_OPTIONS="halt_on_error=1 log_path=$reports/tsan ${TSAN_OPTIONS:-}" \
        ASAN_OPTIONS="detect_leaks=1 log_path=$reports/asan ${ASAN_OPTIONS:-}" \
        LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt print_suppressions=0 ${LSAN_OPTIONS:-}" \
            swift test --skip-build "${flags[@]}" || status=$?
        found=0
        for report in "$reports"/*; do
            [ -s "$report" ] || continue
            found=1
            echo "sanitize: $sanitizer: report $(basename "$report"):"
            head -n 120 "$report"
        done
        if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
            echo "sanitize: $sanitizer: $package failed (tests exit $status, reports: $found)" >&2
            exit 1
        fi
        echo "sanitize: $sanitizer: $package passed in $(( $(date +%s) - start ))s"
    done
done
