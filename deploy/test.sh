#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs the whole suite:
# Swift unit, store and end-to-end tests (real processes on temporary homes, real sockets,
# real SQLite), then the Python tests (protocol examples and live traffic against the JSON
# Schemas, and the interactive setup driven through a pseudo-terminal).
set -euo pipefail
cd "$(dirname "$0")/.."

# hledger, ledger and beancount: the journal and beancount exports are checked against them.
# make, man-db and binutils: the install test (make install, man -l, readelf, strip). strace: the
# export durability test (an fsync before the rename). postgresql and openssl: the sync
# hub tests make a PostgreSQL cluster of their own (with a self-signed TLS certificate) in a
# temporary folder on a free port; the package's default cluster is not used, running or not.
deploy/install-deps.sh libzmq3-dev libsqlite3-dev hledger ledger beancount postgresql openssl make man-db binutils strace
deploy/install-deps.sh --python-test-deps

echo "ledgerly: building (debug) with tests"
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
swift build --build-tests 2>&1 | tee "$build_log"
# No warnings in our own code (dependencies are not ours to fix).
if grep -E "^$(pwd)/(Sources|Tests)/.*: warning:" "$build_log"; then
    echo "ledgerly: error: the build has warnings in Sources/ or Tests/ (above)" >&2
    exit 1
fi

echo "ledgerly: Swift tests"
swift test --skip-build

echo "ledgerly: Python tests"
LEDGERLY_BIN_DIR="$(swift build --show-bin-path)" python3 -m pytest -q Tests/python
