"""The default home in the XDG layout, as a user without LEDGERLY_HOME meets it: configuration
in $XDG_CONFIG_HOME/ledgerly (JSON5, comments allowed), state and logs in $XDG_STATE_HOME,
sockets in $XDG_RUNTIME_DIR; a home from before the layout moved over at first start with a
message; SIGHUP reloading a good configuration and refusing a bad one; `ledgerly config
check|init|paths`; and deploy/lib.sh placing run/ and logs/ where the binaries do."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import REPO, binary

SERVICES = ("ledgerly-store", "ledgerly-rates", "ledgerly-alerts")


def xdg_env(user: Path, runtime: Path | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("LEDGERLY_HOME",) and not key.startswith("XDG_")}
    env["HOME"] = str(user)
    env["NO_COLOR"] = "1"
    if runtime is not None:
        env["XDG_RUNTIME_DIR"] = str(runtime)
    return env


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary("ledgerly"), *args], env=env, capture_output=True, text=True, timeout=60)


def wait_until(condition, what: str, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def user():
    # Short paths: the sockets' path must fit a Unix socket's 107 bytes.
    root = Path(tempfile.mkdtemp(prefix="lx", dir="/tmp"))
    procs: list[subprocess.Popen] = []
    yield root, procs
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    subprocess.run(["rm", "-rf", str(root)])


def start(env: dict[str, str], name: str, log: Path, procs: list) -> subprocess.Popen:
    out = open(log, "wb")
    proc = subprocess.Popen([binary(name)], env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)
    procs.append(proc)
    return proc


def test_an_old_default_home_moves_to_the_xdg_places_and_runs_there(user):
    root, procs = user
    home, runtime = root / "h", root / "r"
    runtime.mkdir(mode=0o700)
    data = home / ".local/share/ledgerly"
    data.mkdir(parents=True)
    # The layout before: configuration and state inside the data directory.
    (data / "rates.json").write_text('// no providers in tests\n{"providers": [],}\n')
    (data / "alerts.json").write_text('{ /* nothing yet */ }\n')
    (data / "state").mkdir()
    (data / "state" / "old-note.txt").write_text("kept\n")
    env = xdg_env(home, runtime)
    logs = {name: root / f"{name}.log" for name in SERVICES}
    for name in SERVICES:
        start(env, name, logs[name], procs)
    sockets = runtime / "ledgerly"
    wait_until(lambda: all((sockets / f"{name}.cmd").exists() for name in ("store", "rates", "alerts")), "the services' sockets")

    config = home / ".config/ledgerly"
    state = home / ".local/state/ledgerly"
    assert (config / "rates.json").read_text().startswith("// no providers in tests")
    assert (config / "alerts.json").exists()
    assert not (data / "rates.json").exists() and not (data / "alerts.json").exists()
    assert (state / "old-note.txt").read_text() == "kept\n"
    assert (runtime / "ledgerly" / "store.cmd").exists()
    # The sockets are in the runtime folder; the instance locks stay beside the database, so a
    # store started without XDG_RUNTIME_DIR (or by an older version) still finds this one's lock.
    assert sorted(path.name for path in (data / "run").iterdir()) == ["ledgerly-alerts.lock", "ledgerly-rates.lock", "ledgerly-store.lock"]
    second = subprocess.run([binary("ledgerly-store")], env={**env, "XDG_RUNTIME_DIR": ""}, capture_output=True, text=True, timeout=30)
    assert second.returncode != 0 and "lock" in second.stderr.lower(), second.stderr
    said = "".join(log.read_text(errors="replace") for log in logs.values())
    assert f"moved {data}/rates.json to {config}/rates.json (XDG layout)" in said, said

    # The CLI finds the same places on its own, and the ledger works.
    assert cli(env, "setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes").returncode == 0
    paths = json.loads(cli(env, "config", "paths", "--json").stdout)
    assert paths == {"data": str(data), "config": str(config), "state": str(state), "logs": str(state / "logs"),
                     "sockets": str(runtime / "ledgerly"), "layout": "xdg"}
    assert (data / "ledgerly.sqlite").exists()


def test_sighup_applies_a_good_configuration_and_keeps_running_on_a_bad_one(user):
    root, procs = user
    home = root / "h"
    home.mkdir()
    (home / "rates.json").write_text('{"providers": []}\n')
    env = xdg_env(root / "u", None)
    env["LEDGERLY_HOME"] = str(home)
    log = root / "alerts.log"
    start(env, "ledgerly-store", root / "store.log", procs)
    alerts = start(env, "ledgerly-alerts", log, procs)
    wait_until(lambda: (home / "run" / "alerts.cmd").exists(), "alerts to start")

    (home / "alerts.json").write_text('{"webhooks": [{"name": "x", "url": "ftp://nowhere", "secret": ""}]}\n')
    alerts.send_signal(signal.SIGHUP)
    wait_until(lambda: "the configuration was not reloaded" in log.read_text(errors="replace"), "the refusal in the log")
    assert alerts.poll() is None

    (home / "alerts.json").write_text('// a desktop notification\n{"commandHooks": [{"name": "n", "command": ["/bin/true"]}],}\n')
    alerts.send_signal(signal.SIGHUP)
    wait_until(lambda: log.read_text(errors="replace").count("restarting to apply it") == 1, "the restart")
    # The same process (execv keeps the pid) comes back and answers again.
    def alerts_answers() -> bool:
        status = cli(env, "status", "--json")
        services = {entry["service"]: entry for entry in json.loads(status.stdout or "{}").get("services", [])} if status.stdout else {}
        return services.get("ledgerly-alerts", {}).get("up") is True
    wait_until(alerts_answers, "alerts to answer again")
    assert alerts.poll() is None
    # And the restarted service still stops on SIGTERM, promptly and cleanly.
    alerts.send_signal(signal.SIGTERM)
    assert alerts.wait(timeout=15) == 0


def test_config_check_and_init(user):
    root, _ = user
    env = xdg_env(root / "u", None)
    env["LEDGERLY_HOME"] = str(root / "h")
    written = cli(env, "config", "init")
    assert written.returncode == 0 and written.stdout.count(": written") == 2, written.stdout
    checked = cli(env, "config", "check")
    assert checked.returncode == 0 and checked.stdout.count(": good") == 2, checked.stdout + checked.stderr
    again = cli(env, "config", "init")
    assert again.stdout.count("exists, left as it is") == 2
    (root / "h" / "rates.json").write_text('{"providers": [{"name": "x", "format": "nope"}]}')
    broken = cli(env, "config", "check")
    assert broken.returncode == 1 and "ledgerly-rates:" in broken.stderr, broken.stderr


@pytest.mark.parametrize("variables", [
    {},
    {"XDG_RUNTIME_DIR": "/tmp/lxrt"},
    {"XDG_DATA_HOME": "/tmp/lxdata", "XDG_STATE_HOME": "/tmp/lxstate", "XDG_RUNTIME_DIR": "/tmp/lxrt"},
    {"XDG_RUNTIME_DIR": "relative/ignored", "XDG_STATE_HOME": "also/relative"},
    {"LEDGERLY_HOME": "/tmp/lxother", "XDG_RUNTIME_DIR": "/tmp/lxrt"},
    # A data folder reached through a symbolic link is the default home as written, on both sides.
    {"XDG_DATA_HOME": "/tmp/lxlink", "LEDGERLY_HOME": "/tmp/lxlink/ledgerly", "XDG_RUNTIME_DIR": "/tmp/lxrt"},
])
def test_deploy_scripts_place_run_and_logs_where_the_binaries_do(variables):
    Path("/tmp/lxreal").mkdir(exist_ok=True)
    if not os.path.islink("/tmp/lxlink"):
        os.symlink("/tmp/lxreal", "/tmp/lxlink")
    env = xdg_env(Path("/tmp/lxuser"), None)
    env.update(variables)
    paths = json.loads(cli(env, "config", "paths", "--json").stdout)
    shell = subprocess.run(["bash", "-c", 'source deploy/lib.sh; resolve_home; printf "%s\\n%s\\n%s\\n" "$LEDGERLY_HOME" "$LEDGERLY_RUN_DIR" "$LEDGERLY_LOG_DIR"'],
                           cwd=REPO, env=env, capture_output=True, text=True)
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout.splitlines() == [paths["data"], paths["sockets"], paths["logs"]]
