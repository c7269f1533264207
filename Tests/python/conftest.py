"""Shared fixtures for Ledgerly's Python end-to-end tests.

- `ledgerly_home`: a fresh, short temporary home directory (ipc socket paths must stay < 100 bytes).
- `services`: `ledgerly-store`, `ledgerly-rates` and `ledgerly-alerts` running on that home, ready
  (every service answers `status`), and stopped afterwards (SIGTERM, then SIGKILL) even on failure.
  The home gets a `rates.json` without providers, so nothing is fetched from the internet.
- `cli`: runs the `ledgerly` CLI against the home (`subprocess.run`, LEDGERLY_HOME, NO_COLOR=1).
- `store`: a protocol client for `store.cmd` that builds envelopes per protocol/PROTOCOL.md.
- `ready_store`: `store` after `setup.complete`.

Binaries come from $LEDGERLY_BIN_DIR, else <repo>/.build/debug.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import zmq

REPO = Path(__file__).resolve().parents[2]
PROTOCOL_DIR = REPO / "protocol"
BIN_DIR = Path(os.environ.get("LEDGERLY_BIN_DIR") or REPO / ".build" / "debug")
SERVICES = ("ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync")

# validate.py lives in protocol/; importing it must not leave a __pycache__ there.
_dont_write = sys.dont_write_bytecode
sys.dont_write_bytecode = True
if str(PROTOCOL_DIR) not in sys.path:
    sys.path.insert(0, str(PROTOCOL_DIR))
import validate as protocol_validate  # noqa: E402

sys.dont_write_bytecode = _dont_write

# Message types that change the ledger (PROTOCOL.md §5): they need an idempotency key.
WRITES = {
    "settings.update", "setup.save", "setup.complete", "wallet.create", "wallet.update",
    "wallet.archive", "category.create", "category.update", "tag.create", "tx.create",
    "tx.update", "tx.delete", "tx.transfer", "tx.import", "tx.import.undo",
    "ledger.restore.begin", "ledger.restore.finish", "rates.restore",
    "rates.profile.create", "rates.profile.use", "rates.set", "rates.batch", "rates.override.end",
    "rates.provider.report", "rates.provider.forget", "convert",
    "budget.set", "budget.delete", "alert.raise", "recurring.create", "recurring.pause",
    "recurring.delete", "recurring.post", "goal.create", "goal.fund", "goal.autofund",
}

READY_DEADLINE = 30.0       # seconds for all four services to answer `status`
STOP_GRACE = 10.0           # seconds between SIGTERM and SIGKILL
POLL_INTERVAL = 0.1
REQUEST_TIMEOUT_MS = 5000


def binary(name: str) -> str:
    path = BIN_DIR / name
    if not path.is_file():
        pytest.fail(f"{path} does not exist: build Ledgerly first or set LEDGERLY_BIN_DIR")
    return str(path)


def now_ts() -> str:
    t = datetime.datetime.now(datetime.timezone.utc)
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def base_env(home: Path | str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    # Tests start their services themselves: a CLI finding none refuses as before instead of
    # starting some no test would stop (D618); a test that wants it sets LEDGERLY_NO_START="".
    env["LEDGERLY_NO_START"] = "1"
    if home is not None:
        env["LEDGERLY_HOME"] = str(home)
    return env


# ---------------------------------------------------------------------------------------------
# Processes


class Services:
    """The four services on one home directory."""

    def __init__(self, home: Path):
        self.home = home
        self.procs: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}

    def start(self) -> None:
        env = base_env(self.home)
        # No rate providers unless a test configures some (as Tests/EndToEndTests does): the
        # standard configuration would fetch the ECB over the internet on a schedule, and its
        # `rates.provider.report`s would add changes to the log that the tests do not expect.
        rates_config = self.home / "rates.json"
        if not rates_config.exists():
            rates_config.write_text('{"providers": []}\n', encoding="utf-8")
        for name in SERVICES:
            log = self.home.parent / f"{self.home.name}.{name}.log"
            self.logs[name] = log
            with open(log, "wb") as out:
                self.procs[name] = subprocess.Popen(
                    [binary(name), "--home", str(self.home)], env=env,
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True)

    def wait_ready(self, deadline: float = READY_DEADLINE) -> None:
        """Polls `ledgerly status --json` until it exits 0 (every service answers)."""
        end = time.monotonic() + deadline
        last = None
        while time.monotonic() < end:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode} before it was ready\n{self.log_text()}")
            last = run_cli(self.home, "status", "--json", timeout=15)
            if last.returncode == 0:
                return
            time.sleep(POLL_INTERVAL)
        raise RuntimeError(f"services not ready after {deadline}s; last status: rc={last and last.returncode}\n"
                           f"{last and last.stdout}\n{last and last.stderr}\n{self.log_text()}")

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    proc.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        end = time.monotonic() + STOP_GRACE
        for proc in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)

    def log_text(self) -> str:
        parts = []
        for name, log in self.logs.items():
            try:
                parts.append(f"--- {name} ---\n{log.read_text(errors='replace')[-4000:]}")
            except OSError:
                pass
        return "\n".join(parts)

    def endpoint(self, name: str) -> str:
        return f"ipc://{self.home / 'run' / name}"


@pytest.fixture
def ledgerly_home():
    home = Path(tempfile.mkdtemp(prefix="lq", dir="/tmp"))
    assert len(f"ipc://{home}/run/store.events") < 100
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)
        for name in SERVICES:
            try:
                (home.parent / f"{home.name}.{name}.log").unlink()
            except OSError:
                pass


@pytest.fixture
def services(ledgerly_home):
    svc = Services(ledgerly_home)
    try:
        svc.start()
        svc.wait_ready()
        yield svc
    finally:
        svc.stop()


# ---------------------------------------------------------------------------------------------
# CLI


def run_cli(home, *args: str, input: str | None = None, timeout: float = 60, extra_env: dict | None = None,
            stdin=None) -> subprocess.CompletedProcess:
    env = base_env(home)
    if extra_env:
        env.update(extra_env)
    kwargs = {}
    if input is not None:
        kwargs["input"] = input
    else:
        kwargs["stdin"] = stdin if stdin is not None else subprocess.DEVNULL
    return subprocess.run([binary("ledgerly"), *args], env=env, capture_output=True, text=True,
                          timeout=timeout, **kwargs)


@pytest.fixture
def cli(ledgerly_home):
    def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
        return run_cli(ledgerly_home, *args, **kwargs)
    return run


# ---------------------------------------------------------------------------------------------
# Protocol client


class NoReply(Exception):
    pass


class StoreClient:
    """Speaks the v1 protocol (PROTOCOL.md §1-§5) over a fresh REQ socket per request.

    `request()` returns the whole decoded reply (envelope and body) so tests can look at both;
    it never validates: tests decide what to check."""

    def __init__(self, endpoint: str, ctx: zmq.Context | None = None, timeout_ms: int = REQUEST_TIMEOUT_MS):
        self.endpoint = endpoint
        self.ctx = ctx or zmq.Context.instance()
        self.timeout_ms = timeout_ms
        self.sent: list[dict] = []

    @staticmethod
    def envelope(mtype: str, body: dict | None = None, key: str | None | bool = None, v: int = 1,
                 **extra) -> dict:
        """A request envelope. For writes a fresh key is added unless `key` is given;
        `key=False` leaves it out (to test the missing-key rule)."""
        msg = {"v": v, "id": str(uuid.uuid4()), "type": mtype, "ts": now_ts(), "body": {} if body is None else body}
        if key is False:
            pass
        elif key is not None:
            msg["key"] = key
        elif mtype in WRITES:
            msg["key"] = str(uuid.uuid4())
        msg.update(extra)
        return msg

    def send_frame(self, frame: bytes) -> dict:
        sock = self.ctx.socket(zmq.REQ)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVTIMEO, self.timeout_ms)
        sock.setsockopt(zmq.SNDTIMEO, self.timeout_ms)
        sock.connect(self.endpoint)
        try:
            sock.send(frame)
            try:
                raw = sock.recv()
            except zmq.Again:
                raise NoReply(f"no reply from {self.endpoint} within {self.timeout_ms} ms to {frame[:200]!r}") from None
        finally:
            sock.close()
        return json.loads(raw)

    def send(self, msg: dict) -> dict:
        self.sent.append(msg)
        return self.send_frame(json.dumps(msg, ensure_ascii=False).encode())

    def request(self, mtype: str, body: dict | None = None, key: str | None | bool = None, **extra) -> tuple[dict, dict]:
        """Sends one request; returns (request, reply)."""
        msg = self.envelope(mtype, body, key, **extra)
        return msg, self.send(msg)

    def call(self, mtype: str, body: dict | None = None, key: str | None = None) -> dict:
        """Sends a request, validates request and reply against the schemas, requires success,
        and returns the reply body."""
        msg = self.envelope(mtype, body, key)
        protocol_validate.validate_message(msg)
        reply = self.send(msg)
        protocol_validate.validate_message(reply)
        assert reply["re"] == msg["id"], reply
        assert reply["type"] == f"{mtype}.ok", f"{mtype} failed: {json.dumps(reply)}"
        return reply["body"]


@pytest.fixture
def zmq_ctx():
    ctx = zmq.Context()
    try:
        yield ctx
    finally:
        ctx.destroy(linger=0)


@pytest.fixture
def store(services, zmq_ctx) -> StoreClient:
    return StoreClient(services.endpoint("store.cmd"), zmq_ctx)


@pytest.fixture
def ready_store(store) -> StoreClient:
    settings = store.call("setup.complete", {"baseCurrency": "EUR", "exchangeMode": "official", "cloudSync": False})
    assert settings["onboardingCompleted"] is True
    return store
