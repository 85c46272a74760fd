#!/usr/bin/env bash
# Builds the DocC catalog of every library module from compiler-emitted symbol graphs (no
# plugin), with warnings as errors, and checks that the documentation is whole:
#   1. every public symbol of a module is listed in a `## Topics` section of its catalog;
#   2. every ```swift block of an article appears, verbatim, in Snippets/ (which `swift build`
#      compiles) or in Tests/DocumentationExamplesTests/, so the code the articles show compiles.
# Steps: one `swift build` (the same flags as Scripts/test.sh, so after the tests it rebuilds
# nothing), `swift-symbolgraph-extract` on each built module, then one `docc convert` per module.
# Then the app's article-only catalog: the HTTP API of `albums serve`, for scripts.
# Output: .build-docs/docs/<Module> and .build-docs/docs/AlbumsHTTPAPI. Fails on the first problem.
#
# Usage: Scripts/generate-docs.sh [Module...]   (default: every library module and the HTTP API)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

modules=(CommandKit LaunchKit LaunchKitServiceLifecycle SQLiteDatabase CommandStore AlbumLibrary PostgreSQLDatabase PostgreSQLCommandStore)
[ "$#" -gt 0 ] && modules=("$@")
out=.build-docs

# Libraries, executables and Snippets/, with warnings as errors; the trait as in Scripts/test.sh.
traits=(--traits ServiceLifecycleIntegration,PostgreSQL)
swift build -Xswiftc -warnings-as-errors "${traits[@]}"
modules_dir="$(swift build --show-bin-path -Xswiftc -warnings-as-errors "${traits[@]}")/Modules"
triple="$(swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)"
sdk=()
if command -v xcrun >/dev/null; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi

# The checker (curation, compiled examples) is a Swift script: nothing to install.
mkdir -p "$out/docs"
swiftc -O -swift-version 6 Scripts/check-docs.swift -o "$out/check-docs"
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "generate-docs: missing catalog $catalog" >&2; exit 1; }

    # Only this module's graphs: M.symbols.json and M@Other.symbols.json (its extensions).
    graphs="$out/symbol-graphs/$module"
    rm -rf "$graphs" && mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$module" -target "$triple" ${sdk[@]+"${sdk[@]}"} \
        -I "$modules_dir" -I Sources/CSQLite -I Sources/CExtendedAttributes -I Sources/CLibPQ $(pkg-config --cflags-only-I libpq) \
        -minimum-access-level public -emit-extension-block-symbols -output-dir "$graphs"

    "$out/check-docs" "$module" "$catalog" "$graphs"

    # Overloads (setTarget(_:action:), enqueue(_:)) share one page, so a topic can list them by
    # name: docc cannot parse its own disambiguation for generic closure parameters.
    echo "generate-docs: docc convert $module"
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.commandkit.$module" \
        --warnings-as-errors \
        --enable-experimental-overloaded-symbol-presentation \
        --output-path "$out/docs/$module"
done

# The app's reference for scripts: articles only (the app's modules are not a library's API).
if [ "$#" -eq 0 ]; then
    echo "generate-docs: docc convert the albums HTTP API"
    docc convert App/Sources/AlbumsServer/AlbumsServer.docc \
        --fallback-display-name "albums HTTP API" \
        --fallback-bundle-identifier org.commandkit.albums.http-api \
        --warnings-as-errors \
        --output-path "$out/docs/AlbumsHTTPAPI"
    modules+=(AlbumsHTTPAPI)
fi
echo "generate-docs: built ${modules[*]} in $out/docs"
