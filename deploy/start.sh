#!/usr/bin/env bash
# Builds Ledgerly and starts its three services under a per-user supervisord.
#
#   deploy/start.sh [--debug] [--no-build] [--timeout SECONDS]
#
#   --debug          use the debug build (.build/debug; faster to build) instead of release
#   --no-build       skip `swift build` and use the binaries already built
#   --timeout SECS   how long to wait for the services to answer (default 30)
#
# Data goes to $LEDGERLY_HOME (default $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly);
# logs to <home>/logs/ (for the default home $XDG_STATE_HOME/ledgerly/logs: `ledgerly config paths`).
# Running it again rebuilds and restarts the services in place.
# Stop with deploy/stop.sh; inspect with deploy/ledgerctl.sh.
set -euo pipefail

# shellcheck source=deploy/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/lib.sh"

configuration=release
build=1
timeout_seconds=${LEDGERLY_START_TIMEOUT:-30}
while [[ $# -gt 0 ]]; do
    case "$1" in
        --debug) configuration=debug ;;
        --release) configuration=release ;;
        --no-build) build=0 ;;
        --timeout)
            [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || die "--timeout needs a number of seconds"
            timeout_seconds=$2; shift ;;
        --timeout=*)
            timeout_seconds=${1#--timeout=}
            [[ $timeout_seconds =~ ^[0-9]+$ ]] || die "--timeout needs a number of seconds" ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument: $1 (see --help)" ;;
    esac
    shift
done

# Resolve the home before leaving the caller's directory, so a relative LEDGERLY_HOME works.
resolve_home
cd "$REPO_DIR"

# 1. Debian packages (quiet when all are there).
"$DEPLOY_DIR/install-deps.sh"

# 2. Build.
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="$PATH:/opt/swift/usr/bin"
fi
export LEDGERLY_BIN="$REPO_DIR/.build/$configuration"
if [[ $build -eq 1 ]]; then
    command -v swift >/dev/null 2>&1 || die "swift not found (looked on PATH and in /opt/swift/usr/bin)"
    # Release binaries carry the Swift runtime and Foundation statically: a command then starts
    # without the dynamic loader resolving ~10,000 symbols in a dozen Swift libraries
    # (docs/performance.md, "CLI start-up").
    flags=()
    if [[ $configuration == release ]]; then
        flags=(--static-swift-stdlib)
        say "building Ledgerly: swift build -c release --static-swift-stdlib (the first build takes several minutes; --debug is faster)"
    else
        say "building Ledgerly: swift build -c debug"
    fi
    swift build -c "$configuration" "${flags[@]}" || die "swift build -c $configuration ${flags[*]} failed"
else
    say "skipping the build (--no-build); using $LEDGERLY_BIN"
fi
for exe in "${LEDGERLY_SERVICES[@]}" ledgerly; do
    [[ -x $LEDGERLY_BIN/$exe ]] || die "$LEDGERLY_BIN/$exe is missing; build it (drop --no-build)"
done

# 3. Home, with run/ and logs/, owner-only.
# Parents (e.g. ~/.local/share) get the usual permissions; only the home itself is private.
mkdir -p -- "$(dirname -- "$LEDGERLY_HOME")"
(umask 077 && mkdir -p -- "$LEDGERLY_HOME" "$LEDGERLY_RUN_DIR" "$LEDGERLY_LOG_DIR")
chmod 0700 -- "$LEDGERLY_HOME" "$LEDGERLY_RUN_DIR" "$LEDGERLY_LOG_DIR"
say "home: $LEDGERLY_HOME"
say "binaries: $LEDGERLY_BIN"

# 4. supervisord: reuse the running one for this home, or start one.
start_supervisord() {
    local stray
    stray=$(running_services)
    if [[ -n $stray ]]; then
        die "Ledgerly services for $LEDGERLY_HOME are already running outside supervisord:
$(printf '%s\n' "$stray" | sed 's/^/    /; s/ \([0-9]*\)$/ (pid \1)/')
ledgerly: stop them (kill -TERM PID) and run deploy/start.sh again"
    fi
    rm -f -- "$LEDGERLY_RUN_DIR/supervisord.pid"
    say "starting supervisord (config $SUPERVISOR_CONF)"
    # umask 077 so supervisord.log, opened before supervisord applies its own umask, is private.
    (umask 077 && exec supervisord -c "$SUPERVISOR_CONF") \
        || { show_log_tails 20; die "supervisord failed to start"; }
}

if pid=$(supervisord_pid); then
    running_bin=$(supervisord_bin "$pid")
    if [[ -n $running_bin && $running_bin != "$LEDGERLY_BIN" ]]; then
        say "supervisord (pid $pid) runs binaries from $running_bin; restarting it to use $LEDGERLY_BIN"
        "$DEPLOY_DIR/stop.sh"
        start_supervisord
    else
        say "supervisord already running (pid $pid); updating its config and restarting the services"
        ctl update || warn "supervisorctl update failed"
        ctl restart all || warn "supervisorctl restart all reported a problem; checking the services"
    fi
else
    start_supervisord
fi

# 5. Put `ledgerly` on PATH. Never fatal: the services run either way.
link_cli() {
    local target="$LEDGERLY_BIN/ledgerly" dir dest
    if [[ -n ${LEDGERLY_LINK_DIR:-} ]]; then
        dir=$LEDGERLY_LINK_DIR
    elif [[ -d /usr/local/bin && -w /usr/local/bin ]]; then
        dir=/usr/local/bin
    else
        dir=${HOME:-}/.local/bin
    fi
    if ! mkdir -p -- "$dir" 2>/dev/null || [[ ! -w $dir ]]; then
        warn "cannot write to $dir; run $target directly or link it yourself"
        return 0
    fi
    dest=$dir/ledgerly
    if [[ -e $dest && ! -L $dest ]]; then
        warn "$dest exists and is not a symlink; leaving it alone (remove it to let start.sh link $target)"
        return 0
    fi
    if ! ln -sfn -- "$target" "$dest" 2>/dev/null; then
        warn "could not link $dest -> $target; run $target directly"
        return 0
    fi
    say "linked $dest -> $target"
    case ":${PATH:-}:" in
        *":$dir:"*)
            local found
            found=$(command -v ledgerly 2>/dev/null || true)
            if [[ -n $found && $found != "$dest" ]]; then
                warn "\`ledgerly\` on your PATH is $found, which comes before $dest"
            fi ;;
        *) warn "$dir is not on your PATH; add it, e.g.: export PATH=\"$dir:\$PATH\"" ;;
    esac
}
link_cli

# 6. Wait until all three services answer.
cli="$LEDGERLY_BIN/ledgerly"
say "waiting up to ${timeout_seconds}s for the services to answer"
deadline=$(( $(date +%s%N) + timeout_seconds * 1000000000 ))
next_check=0
failure=""
until "$cli" status --timeout 300 >/dev/null 2>&1; do
    now=$(date +%s%N)
    if (( now >= deadline )); then
        failure="the services did not all answer within ${timeout_seconds}s"
        break
    fi
    # About once a second: give up early if supervisord died or gave up on a service.
    if (( now >= next_check )); then
        next_check=$(( now + 1000000000 ))
        if ! supervisord_pid >/dev/null; then
            failure="supervisord exited"
            break
        fi
        fatal=$(ctl status 2>/dev/null | awk '$2 == "FATAL" { print $1 }' | paste -sd ' ' || true)
        if [[ -n $fatal ]]; then
            failure="supervisord gave up on $fatal (kept exiting at startup)"
            break
        fi
    fi
    sleep 0.2
done

if [[ -n $failure ]]; then
    printf 'ledgerly: error: %s\n' "$failure" >&2
    printf '\n' >&2
    "$cli" status --timeout 500 >&2 || true
    printf '\n' >&2
    ctl status >&2 || true
    show_log_tails 20
    printf '\nledgerly: logs are in %s; stop with deploy/stop.sh\n' "$LEDGERLY_LOG_DIR" >&2
    exit 1
fi

"$cli" status
printf '\n'
# The store reports "setupCompleted" in `ledgerly status --json`.
status_json=$("$cli" status --json 2>/dev/null || true)
if grep -Eq '"setupCompleted"[[:space:]]*:[[:space:]]*true' <<<"$status_json"; then
    say "Ledgerly is running and set up. See \`ledgerly --help\`."
else
    say "Ledgerly is running. Next step: run \`ledgerly setup\` (once) to choose your base currency."
fi
say "stop it with deploy/stop.sh; manage services with deploy/ledgerctl.sh"
