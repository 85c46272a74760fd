#!/usr/bin/env bash
# Builds the DocC catalog of every library module from compiler-emitted symbol graphs (no
# plugin), with warnings as errors, and checks that the documentation is whole:
#   1. every public top-level symbol and nested type of a module is listed in a `## Topics`
#      section of that module's catalog (docc would otherwise curate it silently);
#   2. every ```swift block of an article appears, verbatim, in a file under Snippets/ (which
#      `swift build` compiles), so the code the articles show keeps compiling.
# One `swift build` (into .build-docs, apart from .build so it never invalidates it), then one
# `docc convert` per module. Output: .build-docs/docs/<Module>. Fails on the first problem.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Every library module, or the ones named on the command line (Scripts/generate-docs.sh LaunchKit).
modules=(CommandKit LaunchKit CommandStore AlbumLibrary)
[ "$#" -gt 0 ] && modules=("$@")
scratch=.build-docs
graphs="$scratch/symbol-graphs"

rm -rf "$graphs" && mkdir -p "$graphs" "$scratch/docs"
# One build: libraries, executables and Snippets/. Symbol graphs include public symbols only.
swift build --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public

for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "generate-docs: missing catalog $catalog" >&2; exit 1; }
    # Only this module's graphs: M.symbols.json and M@Other.symbols.json (its extensions).
    own="$scratch/graphs-$module"
    rm -rf "$own" && mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$own/" \;

    python3 Scripts/check-docs.py "$module" "$catalog" "$own"

    # Overloads (setTarget(_:action:), enqueue(_:)) share one page, so a topic can list them by
    # name: docc cannot parse its own disambiguation for generic closure parameters.
    echo "generate-docs: docc convert $module"
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.commandkit.$module" \
        --warnings-as-errors \
        --enable-experimental-overloaded-symbol-presentation \
        --output-path "$scratch/docs/$module"
done
echo "generate-docs: all catalogs built in $scratch/docs"
