#!/usr/bin/env bash
# Registers the offline package mirrors of ../shared/vendor (machines that reach no git host), when
# that folder exists; on a connected machine it does nothing and SwiftPM fetches the real URLs.
# Every script that builds sources this first.
vendor="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/vendor/offline-mirrors.sh"
if [ -x "$vendor" ]; then
    "$vendor" >/dev/null
fi
