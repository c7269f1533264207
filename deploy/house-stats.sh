#!/usr/bin/env bash
# Prints the counts a newcomer feels when reading the code: where SQL and row reads are spelled
# out, unsafe build flags, the README's and Package.swift's length, comments that embed measured
# figures, and (given a built .deb) installed size and lintian's findings. Run it before and after
# a change that claims to simplify, and quote both.
#
#   deploy/house-stats.sh [--deb dist/ledgerly_*.deb]
set -euo pipefail
cd "$(dirname "$0")/.."

deb=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --deb) deb=$2; shift ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "house-stats: unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done

count() { printf '%-58s %s\n' "$1" "$2"; }

count "Swift source lines (Sources/)" "$(find Sources -name '*.swift' -print0 | xargs -0 cat | wc -l)"
count "files with sql: (Sources/)" "$(grep -rl 'sql:' Sources --include='*.swift' | wc -l)"
count "sql: call sites (Sources/)" "$(grep -ro 'sql:' Sources --include='*.swift' | wc -l)"
count "row[\"…\"] reads (Sources/)" "$(grep -ro 'row\["' Sources --include='*.swift' | wc -l)"
count "unsafeFlags in Package.swift" "$(grep -c 'unsafeFlags' Package.swift || true)"
count "Package.swift lines" "$(wc -l < Package.swift)"
count "README.md lines" "$(wc -l < README.md)"
count "decisions (docs/decisions/)" "$(grep -rhc '^\*\*D[0-9]*\. ' docs/decisions | awk '{ n += $1 } END { print n }')"
count "/// comments with a measured figure (ms, µs, %, M instr.)" \
    "$(grep -rhE '^\s*///.*[0-9]+(\.[0-9]+)? ?(ms|µs|%|M instructions)\b' Sources --include='*.swift' | wc -l)"

if [[ -n $deb ]]; then
    [[ -f $deb ]] || { echo "house-stats: no such file: $deb" >&2; exit 1; }
    count ".deb size (bytes)" "$(stat -c %s "$deb")"
    count "installed size (KiB, from the control file)" "$(dpkg-deb -f "$deb" Installed-Size)"
    if command -v lintian >/dev/null; then
        findings=$(lintian --no-tag-display-limit "$deb" 2>/dev/null || true)
        count "lintian errors" "$(grep -c '^E:' <<<"$findings" || true)"
        count "lintian warnings" "$(grep -c '^W:' <<<"$findings" || true)"
    else
        count "lintian" "not installed (apt-get install lintian)"
    fi
fi
