#!/usr/bin/env bash
# Runs supervisorctl against Ledgerly's own supervisord for this home.
#
#   deploy/ledgerctl.sh                    status of the three services
#   deploy/ledgerctl.sh restart store      restart one service (store, rates, alerts, sync, web, or all)
#   deploy/ledgerctl.sh tail -f rates      follow a service's log (stderr)
#   deploy/ledgerctl.sh ARGS...            any other supervisorctl command
#
# Short names store/rates/alerts/sync/web stand for ledgerly-store/-rates/-alerts/-sync/-web.
# Uses $LEDGERLY_HOME (default $XDG_DATA_HOME/ledgerly, else ~/.local/share/ledgerly).
set -euo pipefail

# shellcheck source=deploy/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/lib.sh"

case "${1:-}" in
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

resolve_home
ensure_bin_for_ctl
supervisord_pid >/dev/null || die "supervisord is not running for $LEDGERLY_HOME (start it with deploy/start.sh)"

args=()
for arg in "$@"; do
    case "$arg" in
        store|rates|alerts|sync|web) args+=("ledgerly-$arg") ;;
        *) args+=("$arg") ;;
    esac
done
[[ ${#args[@]} -eq 0 ]] && args=(status)
exec supervisorctl -c "$SUPERVISOR_CONF" "${args[@]}"
