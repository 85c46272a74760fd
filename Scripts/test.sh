#!/usr/bin/env bash
# The project's test command (README): a warnings-as-errors build of everything, then the suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

# The opt-in trait builds and tests LaunchKitServiceLifecycle too (on swift-service-lifecycle).
traits=(--traits ServiceLifecycleIntegration)
swift build --build-tests -Xswiftc -warnings-as-errors "${traits[@]}" "$@"
swift test --skip-build --parallel "${traits[@]}" "$@"
