#!/usr/bin/env bash
# Builds dist/ledgerly_<version>_<arch>.deb from the tree `make install` writes (PREFIX=/usr):
# `ledgerly` and the multi-call `ledgerly-services` (which ledgerly-store, -rates, -alerts and
# -sync link to, D504) with the Swift standard library linked in and stripped, man pages,
# completions, systemd user units, the documentation, and deploy/debian/'s copyright, changelog
# and lintian overrides (D505-D507). Its Depends are what the binaries
# load, as dpkg-shlibdeps finds them (libzmq5, libsqlite3-0, libc6, …): no Swift on the
# target machine. Not run in CI (a release build takes minutes); deploy/deb-smoke-test.sh
# installs the package into a clean Debian root.
#
#   deploy/build-deb.sh            (CONFIGURATION=debug for a quick, larger package;
#                                   SCRATCH=DIR to build in swift build's --scratch-path DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=deploy/lib.sh
source deploy/lib.sh

configuration=${CONFIGURATION:-release}
scratch=${SCRATCH:-.build}
deploy/install-deps.sh libzmq3-dev libsqlite3-dev libxml2-dev dpkg-dev binutils
version=$(sed -n 's/.*public static let current = "\(.*\)".*/\1/p' Sources/LedgerlyRuntime/Home/LedgerlyVersion.swift)
[[ -n $version ]] || die "could not read the version from Sources/LedgerlyRuntime/Home/LedgerlyVersion.swift"
# The changelog's newest entry names the version being packaged (Debian policy 4.4).
changelog_version=$(sed -n '1s/^ledgerly (\([^)]*\)).*/\1/p' deploy/debian/changelog)
[[ $changelog_version == "$version" ]] || die "deploy/debian/changelog's newest entry is $changelog_version, the program is $version: add an entry"
architecture=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/ledgerly_${version}_$architecture

say "building ($configuration) and staging an install under $stage"
make build CONFIGURATION="$configuration" SCRATCH="$scratch"
make install DESTDIR="$stage" PREFIX=/usr CONFIGURATION="$configuration" SCRATCH="$scratch"
# dpkg keeps its own list of the package's files.
rm -f "$stage/usr/share/ledgerly/install-manifest" "$stage/usr/share/ledgerly/install-manifest.dirs"
rmdir "$stage/usr/share/ledgerly"
# What Debian wants beside every package: the copyright file, the changelog (a native package's,
# compressed) and the overrides for lintian's findings deploy/README.md justifies.
install -m 0644 deploy/debian/copyright "$stage/usr/share/doc/ledgerly/copyright"
gzip -9nc deploy/debian/changelog > "$stage/usr/share/doc/ledgerly/changelog.gz"
chmod 0644 "$stage/usr/share/doc/ledgerly/changelog.gz"
install -D -m 0644 deploy/debian/ledgerly.lintian-overrides "$stage/usr/share/lintian/overrides/ledgerly"

# dpkg-shlibdeps reads a source package's debian/control: a minimal one, in the scratch folder.
mkdir -p "$work/source/debian"
printf 'Source: ledgerly\n\nPackage: ledgerly\nArchitecture: any\n' > "$work/source/debian/control"
depends=$(cd "$work/source" && dpkg-shlibdeps -O "$stage"/usr/bin/ledgerly "$stage"/usr/libexec/ledgerly/ledgerly-services 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[[ -n $depends ]] || die "dpkg-shlibdeps found no dependencies"

installed_size=$(du -sk "$stage/usr" | cut -f1)
mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: ledgerly
Version: $version
Architecture: $architecture
Maintainer: The Ledgerly authors <maintainers@ledgerly.invalid>
Installed-Size: $installed_size
Depends: $depends
Suggests: hledger, ledger, beancount, libnotify-bin
Section: utils
Priority: optional
Description: multi-currency personal-finance ledger
 Wallets in several currencies with official and parallel exchange rates,
 monthly budgets with alerts, goals, recurring transactions, investments,
 net worth over time and sync between devices through your own PostgreSQL.
 Services (ledgerly-store, -rates, -alerts, -sync, -web) run as systemd user units;
 the ledgerly command talks to them.
CONTROL

mkdir -p dist
package=dist/ledgerly_${version}_$architecture.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >/dev/null
say "built $package ($(du -h "$package" | cut -f1)); Depends: $depends"
for program in "$stage"/usr/bin/* "$stage"/usr/libexec/ledgerly/*; do
    [[ -L $program ]] && continue
    printf '  %-18s %s\n' "$(basename "$program")" "$(du -h "$program" | cut -f1)"
done
say "installed: $installed_size KiB"
