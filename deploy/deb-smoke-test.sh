#!/usr/bin/env bash
# Installs dist/ledgerly_*.deb into a clean Debian root made with debootstrap (no Swift in it)
# and runs it there: `apt install ./ledgerly_*.deb` must pull in only Debian's packages, and the
# services must start and answer `ledgerly setup`. Shown once for the release notes; not run in
# CI (it downloads a Debian base system). Needs root (debootstrap, chroot).
#
#   deploy/deb-smoke-test.sh [SUITE]       (default: this machine's Debian suite, else bookworm)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=deploy/lib.sh
source deploy/lib.sh

[[ $(id -u) == 0 ]] || die "run as root (debootstrap and chroot need it)"
package=$(ls -t dist/ledgerly_*.deb 2>/dev/null | head -1 || true)
[[ -n $package ]] || die "no dist/ledgerly_*.deb: run deploy/build-deb.sh first"
# This machine's suite when it is Debian (the package was built against its libraries), else bookworm.
suite=${1:-$( . /etc/os-release && if [[ ${ID:-} == debian && -n ${VERSION_CODENAME:-} ]]; then echo "$VERSION_CODENAME"; else echo bookworm; fi)}
deploy/install-deps.sh debootstrap

root=$(mktemp -d /var/tmp/ledgerly-debroot.XXXXXX)
cleanup() {
    for mount in proc sys dev/pts dev; do umount -l "$root/$mount" 2>/dev/null || true; done
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT

say "debootstrap $suite into $root (minbase)"
debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian >/dev/null
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
cp "$package" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

say "in the clean root: swift is $(in_root sh -c 'command -v swift || echo absent')"
in_root apt-get update -qq
in_root apt-get install -y -qq "/tmp/$(basename "$package")" >/dev/null
say "installed; the package pulled in: $(in_root dpkg-query -W -f='${Depends}' ledgerly)"
say "ledgerly --version: $(in_root ledgerly --version)"
for program in ledgerly ledgerly-store ledgerly-rates ledgerly-alerts ledgerly-sync; do
    printf '  %-18s %s\n' "$program" "$(du -hL "$root/usr/bin/$program" | cut -f1)"
done

say "starting the store and running setup inside the root"
in_root sh -c '
    set -e
    export LEDGERLY_HOME=/root/ledger
    mkdir -p "$LEDGERLY_HOME"
    ledgerly-store --home "$LEDGERLY_HOME" > /tmp/store.log 2>&1 &
    store=$!
    for i in $(seq 1 50); do ledgerly status >/dev/null 2>&1 && break; sleep 0.2; done
    ledgerly setup --base-currency EUR --exchange-mode manual --sync off --yes
    ledgerly wallet add Checking --currency EUR --starting-balance 100
    ledgerly tx add --wallet Checking --amount 12.50 --notes "First coffee"
    ledgerly report balance
    man -w ledgerly >/dev/null 2>&1 && echo "man ledgerly: found" || echo "man ledgerly: man-db not in minbase (the pages are in /usr/share/man/man1)"
    kill "$store"
'
say "smoke test passed"
