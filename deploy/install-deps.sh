#!/usr/bin/env bash
# Installs the Debian packages Ledgerly needs, only the ones that are missing.
#
#   deploy/install-deps.sh                      # libzmq3-dev libsqlite3-dev libxml2-dev supervisor
#   deploy/install-deps.sh PKG...               # just these packages
#   deploy/install-deps.sh --python-test-deps   # pyzmq, pexpect, jsonschema, selenium and Debian's
#                                               # chromium + chromium-driver (for the tests)
#
# Idempotent and silent when nothing is missing. Runs apt-get update only when it has something
# to install. Uses sudo when not root (and sudo exists).
set -euo pipefail

# libxml2-dev: the release binaries link Foundation statically (start.sh), and its XML part
# (the ECB daily feed's parser) then links libxml2 at build time.
DEFAULT_PACKAGES=(libzmq3-dev libsqlite3-dev libxml2-dev supervisor)

say() { printf 'ledgerly: %s\n' "$*"; }
die() { printf 'ledgerly: error: %s\n' "$*" >&2; exit 1; }

# Prints the command prefix needed to run something as root ("" or "sudo"); fails if impossible.
root_prefix() {
    if [[ ${EUID:-$(id -u)} -eq 0 ]]; then
        printf ''
    elif command -v sudo >/dev/null 2>&1; then
        printf 'sudo'
    else
        return 1
    fi
}

# True when the package is installed (not merely known, or removed with its config left behind).
is_installed() {
    dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed$'
}

ensure_debian_packages() {
    local missing=() pkg prefix
    for pkg in "$@"; do
        is_installed "$pkg" || missing+=("$pkg")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0

    command -v apt-get >/dev/null 2>&1 || die "missing packages (${missing[*]}) and no apt-get here; install them by hand"
    prefix=$(root_prefix) || die "missing packages (${missing[*]}): run this as root or install sudo"
    say "installing missing packages: ${missing[*]}"
    # $prefix is empty or "sudo"; word splitting is intended.
    # shellcheck disable=SC2086
    $prefix env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null \
        || die "apt-get update failed"
    # shellcheck disable=SC2086
    $prefix env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
        || die "apt-get install ${missing[*]} failed"
    for pkg in "${missing[@]}"; do
        is_installed "$pkg" || die "$pkg is still not installed after apt-get install"
    done
    say "installed: ${missing[*]}"
}

# The browser the web tests drive (Tests/python/test_web.py): Debian's, not a download.
WEB_TEST_PACKAGES=(chromium chromium-driver)

ensure_python_test_deps() {
    command -v python3 >/dev/null 2>&1 || ensure_debian_packages python3 python3-pip
    ensure_debian_packages "${WEB_TEST_PACKAGES[@]}"
    if python3 -c 'import zmq, pexpect, jsonschema, selenium' >/dev/null 2>&1; then
        return 0
    fi
    if ! python3 -m pip --version >/dev/null 2>&1; then
        ensure_debian_packages python3-pip
    fi
    say "installing Python test dependencies: pyzmq pexpect jsonschema selenium"
    python3 -m pip install --quiet pyzmq pexpect jsonschema selenium \
        || die "pip install failed (on an externally managed Python, use a venv or install python3-zmq python3-pexpect python3-jsonschema python3-selenium with apt)"
    python3 -c 'import zmq, pexpect, jsonschema, selenium' >/dev/null 2>&1 \
        || die "Python test dependencies still not importable after pip install"
}

main() {
    local python_deps=0 packages=() arg
    for arg in "$@"; do
        case "$arg" in
            --python-test-deps) python_deps=1 ;;
            -h|--help)
                sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
                exit 0 ;;
            -*) die "unknown option: $arg (see --help)" ;;
            *) packages+=("$arg") ;;
        esac
    done
    # Alone, --python-test-deps touches only what pip needs; packages can be given with it.
    if [[ ${#packages[@]} -eq 0 && $python_deps -eq 0 ]]; then
        packages=("${DEFAULT_PACKAGES[@]}")
    fi
    if [[ ${#packages[@]} -gt 0 ]]; then
        ensure_debian_packages "${packages[@]}"
    fi
    if [[ $python_deps -eq 1 ]]; then
        ensure_python_test_deps
    fi
}

# Can be sourced (to use ensure_debian_packages / ensure_python_test_deps) or run.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
