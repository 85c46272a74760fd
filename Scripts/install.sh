#!/usr/bin/env bash
# Builds albums in release mode (statically linked on Linux) and installs it under PREFIX (default ~/.local), with its shell
# completion scripts:
#   PREFIX/bin/albums
#   PREFIX/share/bash-completion/completions/albums
#   PREFIX/share/zsh/site-functions/_albums
#   PREFIX/share/fish/vendor_completions.d/albums.fish
# Usage: Scripts/install.sh            PREFIX=/usr/local Scripts/install.sh
#
# ALBUMS_INSTALL_BINARY=/path/to/albums installs that binary instead of building one (the tests
# install the debug build this way: the release build takes minutes). A relative PREFIX or
# ALBUMS_INSTALL_BINARY is taken from the folder the script is run in.
set -euo pipefail
# Nothing installed is writable by group or others, whatever the caller's umask (a world-writable
# file on a PATH is anyone's program); a stricter umask stays as it is.
umask "$(printf '%03o' $(( 0$(umask) | 022 )))"

fail() {
    echo "install: $1" >&2
    exit 1
}

# The first path from `$1` up that exists but is not a folder (so no folder can be made below it).
in_the_way() {
    local path="$1"
    while [ "$path" != / ] && [ "$path" != . ]; do
        if [ -e "$path" ] && [ ! -d "$path" ]; then
            echo "$path"
            return
        fi
        path="$(dirname "$path")"
    done
}

# The reason at the end of a tool's error message ("…: Permission denied").
reason() { sed -n '1s/.*: //p'; }

absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

prefix="$(absolute "${PREFIX:-$HOME/.local}")"
while [ "${#prefix}" -gt 1 ] && [ "${prefix%/}" != "$prefix" ]; do prefix="${prefix%/}"; done
given_binary="${ALBUMS_INSTALL_BINARY:+$(absolute "$ALBUMS_INSTALL_BINARY")}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ -n "$given_binary" ]; then
    [ -f "$given_binary" ] && [ -x "$given_binary" ] ||
        fail "ALBUMS_INSTALL_BINARY: $given_binary is not an executable file"
    binary="$given_binary"
else
    Scripts/offline-mirrors.sh
    # On Linux, one statically linked executable: no dynamic loading and relocation of the Swift
    # runtime, Foundation and ICU at every start, which was two thirds of a short command's time
    # (BENCHMARKS.md, "Start-up"). Its own build folder, so the usual release build stays as it is.
    # Stripped (-s): unstripped, the symbol tables took the binary from 63 MB to 84 MB.
    build=(swift build --package-path App -c release --product albums -Xlinker -s)
    if [ "$(uname -s)" = Linux ]; then
        # Statically linked: a dynamic albums (even with --static-swift-stdlib) started in about
        # 10 ms against 3.8 ms static for `list` of 5 albums (BENCHMARKS.md, "Start-up").
        build+=(--scratch-path App/.build/install -Xswiftc -static-executable -Xlinker -ltinfo)
    fi
    # Filtered: glibc's link-time notes on a static binary, that its name-service and dlopen entry
    # points (getpwuid, getaddrinfo, dlopen: called inside Foundation and SQLite, not by albums)
    # load the same glibc's shared parts at run time, and that Foundation's own createTemporaryFile
    # references mktemp. They are in every static Swift binary; any other linker warning shows.
    # pipefail keeps a failed build failing.
    static_notes="requires at runtime the shared libraries from the glibc version used for linking"
    static_notes+="|FoundationEssentials.*warning: the use of \`mktemp' is dangerous"
    "${build[@]}" 2>&1 | { grep -Ev "$static_notes" || true; }
    binary="$("${build[@]}" --show-bin-path)/albums"
fi

bin="$prefix/bin"
completions=(
    "$prefix/share/bash-completion/completions/albums"
    "$prefix/share/zsh/site-functions/_albums"
    "$prefix/share/fish/vendor_completions.d/albums.fish"
)
# Checked before anything is written, so a bad PREFIX leaves nothing half installed.
for folder in "$bin" "${completions[@]%/*}"; do
    blocker="$(in_the_way "$folder")"
    [ -z "$blocker" ] || fail "cannot install under $prefix: $blocker is a file, not a folder (move it away or choose another PREFIX)"
    error="$(mkdir -p "$folder" 2>&1)" || fail "cannot create $folder: $(reason <<<"$error") (choose another PREFIX)"
done
for target in "$bin/albums" "${completions[@]}"; do
    [ ! -d "$target" ] || fail "cannot install $target: a folder is in the way (move it away)"
done

# New files renamed over the old: a running albums keeps its binary, a shell never reads half a
# completion script, and no temporary is left behind.
new="$bin/.albums.new"
trap 'rm -f "$new" "${completions[@]/%/.new}"' EXIT
error="$(install -m 0755 "$binary" "$new" 2>&1)" || fail "cannot write to $bin: $(reason <<<"$error")"
mv -f "$new" "$bin/albums"
shells=(bash zsh fish)
for i in 0 1 2; do
    target="${completions[$i]}"
    error="$({ "$bin/albums" --generate-completion-script "${shells[$i]}" >"$target.new"; } 2>&1)" ||
        fail "cannot write $target: $(reason <<<"$error")"
    mv -f "$target.new" "$target"
done

echo "install: $("$bin/albums" --version) in $bin/albums, completions under $prefix/share"
case ":$PATH:" in
*":$bin:"*) ;;
*) echo "install: $bin is not on your PATH; add it, e.g. export PATH=\"$bin:\$PATH\"" ;;
esac
