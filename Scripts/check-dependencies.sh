#!/usr/bin/env bash
# The promises about dependencies, checked (ARCHITECTURE.md, "Two packages"):
#
# 1. Every committed Package.resolved can be read by SwiftPM anywhere: each pin is
#    `remoteSourceControl` at an https URL (a `localSourceControl` pin, or a local path, is what a
#    machine's own mirrors once made SwiftPM write; nowhere else can read it).
# 2. A package that uses the libraries resolves no package at all: a throwaway consumer of
#    CommandKit, LaunchKit, SQLiteDatabase and CommandStore resolves with no SwiftPM configuration
#    (no mirrors, so any fetch would fail) and pins nothing.
# 3. One that enables the ServiceLifecycleIntegration trait pins swift-service-lifecycle and what it
#    needs, and nothing of the app's (swift-argument-parser, swift-nio).
#
#   Scripts/check-dependencies.sh          (run by Scripts/test.sh; about 10 s)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
Scripts/offline-mirrors.sh

fail() {
    echo "check-dependencies: $1" >&2
    exit 1
}

# 1. The committed lock files.
mapfile -t locks < <(git ls-files '*Package.resolved')
[ "${#locks[@]}" -gt 0 ] || fail "no committed Package.resolved (the app's, App/Package.resolved, must be)"
python3 - "${locks[@]}" <<'PY' || fail "a committed Package.resolved has a pin no other machine can read (see above)"
import json, sys
bad = []
for path in sys.argv[1:]:
    for pin in json.load(open(path)).get("pins", []):
        kind, location = pin.get("kind"), pin.get("location", "")
        if kind != "remoteSourceControl" or not location.startswith("https://"):
            bad.append(f"{path}: {pin.get('identity')}: kind {kind!r} at {location!r}")
for line in bad:
    print(line, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
for lock in "${locks[@]}"; do
    if grep -q '"location" : "/\|"location" : "file:' "$lock"; then fail "$lock names a local path"; fi
done

# 2 and 3. Throwaway consumers, by path, in a temporary folder.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/check-dependencies.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
consumer() {
    local folder="$scratch/$1" traits="$2"
    mkdir -p "$folder/Sources/Consumer"
    cat >"$folder/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "CommandKit", path: "$root"$traits)],
    targets: [
        .target(
            name: "Consumer",
            dependencies: ["CommandKit", "LaunchKit", "SQLiteDatabase", "CommandStore"$3].map {
                Target.Dependency.product(name: \$0, package: "CommandKit")
            })
    ]
)
EOF
    echo "import CommandKit" >"$folder/Sources/Consumer/Consumer.swift"
    echo "$folder"
}
pins() { [ -f "$1/Package.resolved" ] && python3 -c 'import json,sys; print(" ".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' "$1/Package.resolved" || true; }

plain="$(consumer plain "" "")"
empty_config="$scratch/no-configuration"
mkdir -p "$empty_config"
output="$(swift package --package-path "$plain" --config-path "$empty_config" resolve 2>&1)" ||
    fail "a consumer of the libraries failed to resolve with no mirrors (it tried to fetch something):
$output"
[ -z "$(pins "$plain")" ] || fail "a consumer of the libraries resolved packages: $(pins "$plain")"
echo "check-dependencies: a consumer of CommandKit, LaunchKit, SQLiteDatabase and CommandStore resolves nothing"

served="$(consumer served ', traits: ["ServiceLifecycleIntegration"]' ', "LaunchKitServiceLifecycle"')"
swift package --package-path "$served" resolve >/dev/null 2>&1 || fail "a consumer with the trait failed to resolve"
expected="swift-async-algorithms swift-collections swift-log swift-service-lifecycle"
[ "$(pins "$served")" = "$expected" ] ||
    fail "a consumer with ServiceLifecycleIntegration pinned \"$(pins "$served")\", not \"$expected\""
echo "check-dependencies: with ServiceLifecycleIntegration it pins $expected"
echo "check-dependencies: ${locks[*]}: every pin remoteSourceControl at https"
