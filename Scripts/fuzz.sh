#!/usr/bin/env bash
# Fuzzes every fuzz target with libFuzzer for the given time each (default 60 s), starting from the
# committed seed corpus in Fuzz/<name>/corpus, and prints executions and time per target.
#
#   Scripts/fuzz.sh [seconds] [target...]     targets: stored-commands cli-arguments album-import album-query (default: all)
#
# Build: `--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING`.
# New interesting inputs go to fuzz-out/<name>/corpus (not committed; copy the useful ones into
# Fuzz/<name>/corpus). A crash leaves fuzz-out/<name>/crash-*: commit it to Fuzz/<name>/crashers/,
# where ReliabilityTests replays it, and fix the bug. Exit status: 0, or 1 if any target crashed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

seconds="${1:-60}"
shift || true
# Every fuzz-* executable target the two manifests declare (spaces and line breaks removed first:
# swift-format splits a long declaration over lines, and a line-based match lost stored-commands).
declared() { tr -d '\n ' < "$1" | grep -o 'executableTarget(name:"fuzz-[a-z-]*"' | sed 's/.*"fuzz-//; s/"$//'; }
mapfile -t all_targets < <(declared Package.swift; declared App/Package.swift)
targets=("${@:-${all_targets[@]}}")
# A corpus without its target means the list above lost one: fail rather than skip it quietly.
for corpus in Fuzz/*/; do
    name="$(basename "$corpus")"
    printf '%s\n' "${all_targets[@]}" | grep -qx "$name" || { echo "fuzz: Fuzz/$name has no fuzz-$name target" >&2; exit 1; }
done

# The package that declares fuzz-NAME: the libraries' (.) or the app's (App).
package_of() { if declared Package.swift | grep -qx "$1"; then echo .; else echo App; fi; }
binary_of() { echo "$(package_of "$1")/.build-fuzz/debug/fuzz-$1"; }

for name in "${targets[@]}"; do
    package="$(package_of "$name")"
    swift build --package-path "$package" --product "fuzz-$name" --scratch-path "$package/.build-fuzz" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 \
        | grep -v -e '^\[' -e 'ld.gold: warning: Cannot export local symbol' || true
    [ -x "$(binary_of "$name")" ] || { echo "fuzz: fuzz-$name did not build" >&2; exit 1; }
done

status=0
summary=()
for name in "${targets[@]}"; do
    out="fuzz-out/$name"
    mkdir -p "$out/corpus"
    log="$out/fuzz.log"
    echo "fuzz: $name for ${seconds}s"
    dictionary=()
    [ -f "Fuzz/$name/dictionary" ] && dictionary=(-dict="Fuzz/$name/dictionary")
    start=$(date +%s)
    # -timeout: one input running over 10 s is a hang, reported as a crash. -rss_limit_mb bounds memory.
    if "$(binary_of "$name")" "$out/corpus" "Fuzz/$name/corpus" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/" "${dictionary[@]}" >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
        status=1
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -20 >&2 || true
    fi
    elapsed=$(( $(date +%s) - start ))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    line="fuzz-$name: $result, ${runs:-?} executions in ${elapsed}s (${rate:-?}/s), corpus $(ls "$out/corpus" | wc -l) + $(ls "Fuzz/$name/corpus" | wc -l) seeds"
    echo "$line"
    summary+=("$line")
done
printf '%s\n' "${summary[@]}"
exit "$status"
