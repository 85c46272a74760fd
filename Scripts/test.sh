#!/usr/bin/env bash
# The project's test command (README): the dependency promises, then for each of the two packages
# (the libraries here, the app in App/) a warnings-as-errors build of everything and its suite.
# Arguments go to every `swift build` and `swift test` (e.g. --filter).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh
Scripts/check-dependencies.sh

# The libraries, with the opt-in traits so LaunchKitServiceLifecycle and PostgreSQLDatabase are
# built and tested too: the latter against a private server (Scripts/postgres.sh), stopped at exit.
traits=(--traits ServiceLifecycleIntegration,PostgreSQL)
if [ -z "${COMMANDKIT_POSTGRES_URL:-}" ]; then
    if ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
        COMMANDKIT_POSTGRES_URL="$(Scripts/postgres.sh start)"
        export COMMANDKIT_POSTGRES_URL
        trap 'Scripts/postgres.sh stop' EXIT
    else
        echo "test: no PostgreSQL server installed: PostgreSQLDatabaseTests are skipped (CI fails them)" >&2
    fi
fi
swift build --build-tests -Xswiftc -warnings-as-errors "${traits[@]}" "$@"
swift test --skip-build --parallel "${traits[@]}" "$@"

# The app, its black-box and reliability suites.
swift build --package-path App --build-tests -Xswiftc -warnings-as-errors "$@"
swift test --package-path App --skip-build --parallel "$@"

# The app again with its `PostgreSQL` trait, in a build folder of its own, for the suites that run
# `albums --db postgresql://…` (the terminal UI, serve, the history checker) on the same server.
# Its own build because libpq and what it loads make albums need about 60 MB more address space
# to start, which the address-space limits of the suites above would meet first.
if [ -n "${COMMANDKIT_POSTGRES_URL:-}" ] || [ "${CI:-}" = true ]; then
    pg=(--package-path App --scratch-path App/.build-postgresql --traits PostgreSQL)
    swift build "${pg[@]}" --build-tests -Xswiftc -warnings-as-errors "$@"
    swift test "${pg[@]}" --skip-build --parallel --filter PostgreSQL "$@"
fi

# The README's commands must leave a clone as they found it (a build once rewrote a lock file).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -n "$(git status --porcelain -- '*Package.resolved')" ]; then
    git status --short -- '*Package.resolved' >&2
    echo "test: a build changed a committed Package.resolved" >&2
    exit 1
fi
