#!/usr/bin/env bash
# Stops Ledgerly's supervisord for this home, and with it the three services; waits until they
# are gone.
#
#   deploy/stop.sh [--timeout SECONDS]     (default 45: each service gets 10 s after SIGTERM)
#
# Uses $LEDGERLY_HOME (default $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly).
set -euo pipefail

# shellcheck source=deploy/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/lib.sh"

timeout_seconds=45
while [[ $# -gt 0 ]]; do
    case "$1" in
        --timeout)
            [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || die "--timeout needs a number of seconds"
            timeout_seconds=$2; shift ;;
        -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument: $1 (see --help)" ;;
    esac
    shift
done

resolve_home

report_strays() {
    local stray
    stray=$(running_services)
    [[ -z $stray ]] && return 0
    warn "these Ledgerly services for $LEDGERLY_HOME are still running (not under this supervisord):"
    printf '%s\n' "$stray" | sed 's/^/    /; s/ \([0-9]*\)$/ (pid \1)/' >&2
    warn "stop them with kill -TERM PID"
    return 1
}

if ! pid=$(supervisord_pid); then
    say "supervisord is not running for $LEDGERLY_HOME"
    report_strays || exit 1
    exit 0
fi
ensure_bin_for_ctl

# The services' pids, to wait for them too (supervisorctl prints 0 for a stopped program).
service_pids=$(ctl pid all 2>/dev/null | grep -E '^[1-9][0-9]*$' || true)

say "stopping the services and supervisord (pid $pid) for $LEDGERLY_HOME"
if ! ctl shutdown >/dev/null; then
    warn "supervisorctl shutdown failed; sending SIGTERM to supervisord (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
fi

deadline=$(( $(date +%s%N) + timeout_seconds * 1000000000 ))
while :; do
    alive=""
    for p in $pid $service_pids; do
        if kill -0 "$p" 2>/dev/null; then alive+=" $p"; fi
    done
    [[ -z $alive ]] && break
    if (( $(date +%s%N) >= deadline )); then
        die "still running after ${timeout_seconds}s:$alive (see $LEDGERLY_LOG_DIR)"
    fi
    sleep 0.2
done

report_strays || exit 1
say "stopped"
