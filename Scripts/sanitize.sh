#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer and AddressSanitizer (with LeakSanitizer).
#
#   Scripts/sanitize.sh [thread|address]...     (default: both)
#
# Separate scratch paths (.build-tsan, .build-asan, in each package) keep the normal build untouched. ThreadSanitizer
# runs with halt_on_error=1, so the first race fails the run even when every test passes.
# AddressSanitizer leak reports inside the toolchain's libraries are suppressed by
# Scripts/lsan-suppressions.txt (each entry explained there); any other leak fails the run.
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
    for package in . App; do
        flags=(--sanitize="$sanitizer" --package-path "$package" --scratch-path "$package/$scratch")
        if [ "$package" = . ]; then flags+=(--traits ServiceLifecycleIntegration); fi
        echo "sanitize: $sanitizer: building $package"
        swift build --build-tests "${flags[@]}" 2>&1 \
            | grep -v -e '^\[' -e 'ld.gold: warning: Cannot export local symbol' || true
        echo "sanitize: $sanitizer: testing $package"
        start=$(date +%s)
        TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
        ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}" \
        LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt print_suppressions=0 ${LSAN_OPTIONS:-}" \
            swift test --skip-build "${flags[@]}"
        echo "sanitize: $sanitizer: $package passed in $(( $(date +%s) - start ))s"
    done
done
