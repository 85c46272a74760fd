#!/usr/bin/env bash
# Formats the package's Swift sources with the toolchain's swift-format (configuration: .swift-format),
# or, with --lint, reports what it would change and fails if anything is left.
#
#   Scripts/format.sh           rewrite the files in place
#   Scripts/format.sh --lint    check only (exit 1 on any finding)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
paths=(Sources Tests Snippets Package.swift App/Sources App/Tests App/Package.swift)
if [[ "${1:-}" == "--lint" ]]; then
    findings=$(swift format lint --recursive "${paths[@]}" 2>&1 || true)
    if [[ -n "$findings" ]]; then
        echo "$findings"
        echo "format: $(echo "$findings" | wc -l) finding(s); run Scripts/format.sh" >&2
        exit 1
    fi
    echo "format: clean"
else
    swift format format --in-place --recursive "${paths[@]}"
fi
