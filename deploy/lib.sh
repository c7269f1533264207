# Shared helpers for deploy/start.sh, deploy/stop.sh and deploy/ledgerctl.sh. Sourced, not run.
# shellcheck shell=bash

DEPLOY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_DIR=$(dirname "$DEPLOY_DIR")
SUPERVISOR_CONF="$DEPLOY_DIR/supervisord.conf"
# ledgerly-web is the browser front (docs/web.md); supervisord runs it beside the others.
LEDGERLY_SERVICES=(ledgerly-store ledgerly-rates ledgerly-alerts ledgerly-sync ledgerly-web)

say()  { printf 'ledgerly: %s\n' "$*"; }
warn() { printf 'ledgerly: warning: %s\n' "$*" >&2; }
die()  { printf 'ledgerly: error: %s\n' "$*" >&2; exit 1; }

# Sets and exports LEDGERLY_HOME the way the executables resolve it: $LEDGERLY_HOME, else
# $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly. Made absolute, since supervisord
# and the services run from other directories. Then LEDGERLY_RUN_DIR and LEDGERLY_LOG_DIR, as
# LedgerlyHome places them (D327): the default home follows the XDG base directories (logs in
# $XDG_STATE_HOME/ledgerly/logs, sockets in $XDG_RUNTIME_DIR/ledgerly when that is set); any
# other home keeps run/ and logs/ inside it. `ledgerly config paths` prints the same (a test
# checks they agree). Creates nothing.
resolve_home() {
    local home default
    [[ -n ${HOME:-} ]] || die "HOME is not set"
    # The XDG spec: a relative value is ignored.
    if [[ ${XDG_DATA_HOME:-} == /* ]]; then default=$XDG_DATA_HOME/ledgerly; else default=$HOME/.local/share/ledgerly; fi
    # -s: made absolute and normalised, symlinks left as they are, as LedgerlyHome compares paths.
    default=$(realpath -ms -- "$default")
    if [[ -n ${LEDGERLY_HOME:-} ]]; then home=$(realpath -ms -- "$LEDGERLY_HOME"); else home=$default; fi
    # '%' would be read as interpolation by supervisord, '"' would break its command= quoting.
    case "$home" in
        *%*|*\"*) die "LEDGERLY_HOME ($home) must not contain '%' or '\"'" ;;
    esac
    export LEDGERLY_HOME=$home
    if [[ $home == "$default" ]]; then
        local state
        if [[ ${XDG_STATE_HOME:-} == /* ]]; then state=$XDG_STATE_HOME/ledgerly; else state=$HOME/.local/state/ledgerly; fi
        LEDGERLY_LOG_DIR=$(realpath -ms -- "$state/logs") || die "cannot resolve $state/logs"
        if [[ ${XDG_RUNTIME_DIR:-} == /* ]]; then
            LEDGERLY_RUN_DIR=$(realpath -ms -- "$XDG_RUNTIME_DIR/ledgerly") || die "cannot resolve $XDG_RUNTIME_DIR/ledgerly"
        else
            LEDGERLY_RUN_DIR=$home/run
        fi
        export LEDGERLY_LOG_DIR LEDGERLY_RUN_DIR
    else
        export LEDGERLY_LOG_DIR=$home/logs LEDGERLY_RUN_DIR=$home/run
    fi
}

# Prints the pid of the supervisord that serves $LEDGERLY_HOME and succeeds, or fails when the
# pidfile is missing, stale, or names a process that is not supervisord.
supervisord_pid() {
    local pidfile="$LEDGERLY_RUN_DIR/supervisord.pid" pid cmdline
    [[ -r $pidfile ]] || return 1
    pid=$(tr -dc '0-9' <"$pidfile")
    [[ -n $pid ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    if [[ -r /proc/$pid/cmdline ]]; then
        cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
        [[ $cmdline == *supervisord* ]] || return 1
    fi
    printf '%s\n' "$pid"
}

# Prints the LEDGERLY_BIN a running supervisord was started with (empty if unknown).
supervisord_bin() {
    local pid=$1
    [[ -r /proc/$pid/environ ]] || return 0
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^LEDGERLY_BIN=//p' | head -n 1
}

# Exports LEDGERLY_BIN for supervisorctl if unset. supervisorctl 4.2 only expands the
# [supervisorctl] section, but keep the environment complete for the config's sake; the value is
# the running supervisord's own (the one `update` would use), else the release build dir.
ensure_bin_for_ctl() {
    if [[ -z ${LEDGERLY_BIN:-} ]]; then
        local pid bin=""
        if pid=$(supervisord_pid); then bin=$(supervisord_bin "$pid"); fi
        export LEDGERLY_BIN=${bin:-$REPO_DIR/.build/release}
    fi
}

ctl() {
    supervisorctl -c "$SUPERVISOR_CONF" "$@"
}

# Prints "service pid" for each service of this home whose lock file is held, i.e. that is
# running (under supervisord or not). The services flock <home>/run/<service>.lock (in the data
# directory even when the sockets are in $XDG_RUNTIME_DIR) and write
# their pid into it; the kernel drops the lock when the process dies, kill -9 included.
running_services() {
    local service lock
    command -v flock >/dev/null 2>&1 || return 0
    for service in "${LEDGERLY_SERVICES[@]}"; do
        lock="$LEDGERLY_HOME/run/$service.lock"
        [[ -f $lock ]] || continue
        if ! flock -n "$lock" true 2>/dev/null; then
            printf '%s %s\n' "$service" "$(tr -dc '0-9' <"$lock" 2>/dev/null || true)"
        fi
    done
}

# Prints the last lines of each log, for when something did not come up.
show_log_tails() {
    local lines=${1:-20} log
    for log in "$LEDGERLY_LOG_DIR"/ledgerly-{store,rates,alerts,sync,web}.log "$LEDGERLY_LOG_DIR/supervisord.log"; do
        [[ -f $log ]] || continue
        printf '\n==> %s (last %s lines) <==\n' "$log" "$lines" >&2
        tail -n "$lines" -- "$log" >&2 || true
    done
}
