#!/usr/bin/env bash
# Builds albums in release mode (statically linked on Linux) and installs it under PREFIX (default ~/.local), with its shell
# completion scripts:
#   PREFIX/bin/albums
#   PREFIX/share/bash-completion/completions/albums
#   PREFIX/share/zsh/site-functions/_albums
#   PREFIX/share/fish/vendor_completions.d/albums.fish
# Usage: Scripts/install.sh            PREFIX=/usr/local Scripts/install.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/offline-mirrors.sh

prefix="${PREFIX:-$HOME/.local}"
# On Linux, one statically linked executable: no dynamic loading and relocation of the Swift
# runtime, Foundation and ICU at every start, which was two thirds of a short command's time
# (BENCHMARKS.md, "Start-up"). Its own build folder, so the usual release build stays as it is.
build=(swift build -c release --product albums)
if [ "$(uname -s)" = Linux ]; then
    build+=(--scratch-path .build/install -Xswiftc -static-executable -Xlinker -ltinfo)
fi
"${build[@]}"
binary="$("${build[@]}" --show-bin-path)/albums"

install -d "$prefix/bin" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
    "$prefix/share/fish/vendor_completions.d"
# A new file renamed over the old, so a running albums keeps its binary.
install -m 0755 "$binary" "$prefix/bin/.albums.new"
mv -f "$prefix/bin/.albums.new" "$prefix/bin/albums"
"$prefix/bin/albums" --generate-completion-script bash >"$prefix/share/bash-completion/completions/albums"
"$prefix/bin/albums" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_albums"
"$prefix/bin/albums" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/albums.fish"

echo "install: $("$prefix/bin/albums" --version) in $prefix/bin/albums, completions under $prefix/share"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "install: $prefix/bin is not on your PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
