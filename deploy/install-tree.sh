#!/usr/bin/env bash
# Installs Ledgerly's built binaries into a tree (what `make install` runs), or removes exactly
# what an install wrote (`make uninstall`).
#
#   install-tree.sh --bin DIR --root DESTDIR --prefix PREFIX --manifest FILE
#                   --bindir D --libexecdir D --mandir D --docdir D --bash D --zsh D --fish D --units D
#   install-tree.sh --uninstall --root DESTDIR --manifest FILE
#
# Every path is under PREFIX; DESTDIR (may be empty) is prepended when writing, as for packages.
# The services are one program (D504): `ledgerly-services` in LIBEXECDIR, and `ledgerly-store`,
# `ledgerly-rates`, … in BINDIR are relative links to it; it runs the service its name names.
# The manifest (under PREFIX) lists every file written and every directory the install made, so
# uninstall removes those files and then those directories if they are empty, and nothing else.
set -euo pipefail

die() { echo "install-tree: $*" >&2; exit 1; }

# `--bin-path release|debug [SCRATCH]`: where `make` left that build (SCRATCH: its
# `--scratch-path`, default .build), without running swift (install may run under sudo, where
# swift is often not on the PATH and must not write to .build/).
if [[ ${1:-} == --bin-path ]]; then
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
    scratch=${3:-.build}
    [[ $scratch == /* ]] || scratch=$repo/$scratch
    folder=$scratch/${2:-release}
    [[ -d $folder ]] || die "$folder does not exist: run make (as yourself) first"
    printf '%s\n' "$folder"
    exit 0
fi

uninstall=0 bin="" root="" prefix="" manifest=""
bindir="" libexecdir="" mandir="" docdir="" bashdir="" zshdir="" fishdir="" unitdir=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --uninstall) uninstall=1 ;;
        --bin) bin=$2; shift ;;
        --root) root=$2; shift ;;
        --prefix) prefix=$2; shift ;;
        --manifest) manifest=$2; shift ;;
        --bindir) bindir=$2; shift ;;
        --libexecdir) libexecdir=$2; shift ;;
        --mandir) mandir=$2; shift ;;
        --docdir) docdir=$2; shift ;;
        --bash) bashdir=$2; shift ;;
        --zsh) zshdir=$2; shift ;;
        --fish) fishdir=$2; shift ;;
        --units) unitdir=$2; shift ;;
        *) die "unknown argument: $1" ;;
    esac
    shift
done
[[ -n $manifest ]] || die "--manifest is required"

if [[ $uninstall == 1 ]]; then
    [[ -f $root$manifest ]] || die "no install manifest at $root$manifest: nothing installed there (or installed with another PREFIX)"
    # Files first, then directories deepest first, each only if the install made it and it is empty.
    while IFS=' ' read -r kind path; do
        [[ $kind == file ]] && rm -f -- "$root$path"
    done < "$root$manifest"
    rm -f -- "$root$manifest"
    made=$(grep '^dir ' "$root$manifest.dirs" 2>/dev/null | cut -d' ' -f2- | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- || true)
    rm -f -- "$root$manifest.dirs"
    while read -r dir; do
        [[ -n $dir ]] && { rmdir -- "$root$dir" 2>/dev/null || true; }
    done <<< "$made"
    echo "ledgerly: uninstalled from ${root}${manifest%/share/ledgerly/install-manifest}"
    exit 0
fi

for value in bin prefix bindir libexecdir mandir docdir bashdir zshdir fishdir unitdir; do
    [[ -n ${!value} ]] || die "--$value is required"
done
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# The services the multi-call `ledgerly-services` runs, each by its own name (D504); a new
# service is added here, in deploy/systemd/ and in Sources/ledgerly-services/ServicesMain.swift.
services=(ledgerly-store ledgerly-rates ledgerly-alerts ledgerly-sync ledgerly-web)
for program in ledgerly ledgerly-services; do [[ -x $bin/$program ]] || die "$bin/$program is not built (run make)"; done
command -v python3 >/dev/null || die "python3 is needed to write the man pages (apt-get install python3)"

files=() dirs=()
# Makes a directory (under DESTDIR) and remembers each level the install created.
make_dir() {
    local dir=$1 missing=()
    local walk=$dir
    while [[ -n $walk && $walk != / && ! -d $root$walk ]]; do missing+=("$walk"); walk=$(dirname "$walk"); done
    mkdir -p -- "$root$dir"
    local level
    for level in "${missing[@]}"; do dirs+=("$level"); done
}
# Puts a symbolic link at PATH (under DESTDIR) to TARGET, relative to PATH's directory.
put_link() {
    local target=$1 path=$2
    make_dir "$(dirname "$path")"
    ln -sfn -- "$(realpath -m --relative-to="$(dirname "$path")" "$target")" "$root$path"
    files+=("$path")
}
# Installs FILE as PATH (under DESTDIR) with MODE.
put() {
    local source=$1 path=$2 mode=$3
    make_dir "$(dirname "$path")"
    install -m "$mode" -- "$source" "$root$path"
    files+=("$path")
}

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT

# Binaries, stripped (symbols and debug sections). The services share one binary, which each
# service's name links to (D504): one copy of Foundation and its ICU data instead of four.
for program in ledgerly ledgerly-services; do
    cp -- "$bin/$program" "$staging/$program"
    strip --strip-all "$staging/$program"
done
put "$staging/ledgerly" "$bindir/ledgerly" 0755
put "$staging/ledgerly-services" "$libexecdir/ledgerly-services" 0755
mkdir -p "$staging/by-name"
for service in "${services[@]}"; do
    put_link "$libexecdir/ledgerly-services" "$bindir/$service"
    ln -s -- "$bin/ledgerly-services" "$staging/by-name/$service"
done

# Manual pages from the programs' own help (deploy/manual.py): one page per command, named as
# git's are (`man ledgerly-tx-add`), with the help text's every character kept.
deploy_dir=$(dirname "${BASH_SOURCE[0]}")
python3 "$deploy_dir/manual.py" "$staging/man" "$bin/ledgerly" "${services[@]/#/$staging/by-name/}" >/dev/null
for page in "$staging"/man/*.1; do
    gzip -9n -- "$page"
    put "$page.gz" "$mandir/$(basename "$page").gz" 0644
done

# Shell completions in the places each shell looks by default.
# bash-completion sources its scripts, so the generated `#!/bin/bash` line is dropped.
"$bin/ledgerly" --generate-completion-script bash | sed '1{/^#!/d}' > "$staging/ledgerly.bash"
"$bin/ledgerly" --generate-completion-script zsh > "$staging/_ledgerly"
"$bin/ledgerly" --generate-completion-script fish > "$staging/ledgerly.fish"
put "$staging/ledgerly.bash" "$bashdir/ledgerly" 0644
put "$staging/_ledgerly" "$zshdir/_ledgerly" 0644
put "$staging/ledgerly.fish" "$fishdir/ledgerly.fish" 0644

# systemd user units, running the installed binaries.
for service in "${services[@]}"; do
    sed "s|%h/.local/bin/|$bindir/|g; s|Install: see deploy/systemd/README.md.|Enable: systemctl --user enable --now $service|" \
        "$repo/deploy/systemd/$service.service" > "$staging/$service.service"
    put "$staging/$service.service" "$unitdir/$service.service" 0644
done

# The documentation.
put "$repo/README.md" "$docdir/README.md" 0644
for page in "$repo"/docs/*.md; do put "$page" "$docdir/docs/$(basename "$page")" 0644; done
put "$repo/protocol/PROTOCOL.md" "$docdir/PROTOCOL.md" 0644

make_dir "$(dirname "$manifest")"
printf 'file %s\n' "${files[@]}" > "$root$manifest"
printf 'file %s\n' "$manifest" >> "$root$manifest"
printf 'dir %s\n' "${dirs[@]}" > "$root$manifest.dirs"
echo "ledgerly: installed ${#files[@]} files under ${root}${prefix} (make uninstall PREFIX=$prefix removes them)"
