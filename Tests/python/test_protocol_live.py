"""A Python client written from protocol/ alone, talking to the real store.

Every request sent and every reply and event received is validated against the schemas with
protocol/validate.py's `validate_message`."""

from __future__ import annotations

import datetime
import json
import re
import time
import uuid

import pytest
import zmq

from conftest import StoreClient, now_ts, protocol_validate

# Today (UTC, the tests' time zone): a transaction in a month that has ended makes ledgerly-alerts
# take that month's net-worth snapshot, a change the exact sequence checks below do not expect
# (the date was written in November 2026 and broke them from December on).
EUR_JPY_DATE = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
ECB_AS_OF = "2026-10-30T15:00:00.000Z"
ECB_RATES = [{"base": "EUR", "quote": "USD", "rate": "1.1172", "asOf": ECB_AS_OF},
             {"base": "EUR", "quote": "JPY", "rate": "175.68", "asOf": ECB_AS_OF}]


# ---------------------------------------------------------------------------------------------
# Helpers


class EventWatcher:
    """A SUB socket on store.events subscribed to everything; validates every message received."""

    def __init__(self, ctx: zmq.Context, endpoint: str):
        self.sub = ctx.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(endpoint)
        self.events: list[dict] = []
        self.heartbeats: list[dict] = []

    def close(self):
        self.sub.close()

    def receive(self, timeout_s: float) -> dict | None:
        if not self.sub.poll(int(timeout_s * 1000), zmq.POLLIN):
            return None
        frames = self.sub.recv_multipart()
        assert len(frames) == 2, f"an event has two frames (topic, event), got {frames!r}"
        topic, payload = frames
        msg = json.loads(payload)
        protocol_validate.validate_message(msg)
        assert topic.decode() == msg["type"], f"topic {topic!r} differs from type {msg['type']!r}"
        if msg["type"] == "heartbeat":
            self.heartbeats.append(msg)
        else:
            if self.events:
                assert msg["seq"] > self.events[-1]["seq"], f"seq not increasing: {self.events[-1]['seq']} then {msg['seq']}"
            self.events.append(msg)
        return msg

    def wait_heartbeat(self, timeout_s: float = 5.0) -> dict:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            msg = self.receive(end - time.monotonic())
            if msg is not None and msg["type"] == "heartbeat":
                return msg
        pytest.fail(f"no heartbeat within {timeout_s} s")

    def wait_for_seq(self, seq: int, timeout_s: float = 10.0) -> None:
        """Receives until an event with this seq (or a later one) has arrived."""
        end = time.monotonic() + timeout_s
        while not (self.events and self.events[-1]["seq"] >= seq):
            remaining = end - time.monotonic()
            if remaining <= 0:
                pytest.fail(f"event seq {seq} not received within {timeout_s} s; got {[e['seq'] for e in self.events]}")
            self.receive(remaining)


@pytest.fixture
def watcher(services, zmq_ctx):
    w = EventWatcher(zmq_ctx, services.endpoint("store.events"))
    try:
        # The first heartbeat proves the subscription is in place (no slow-joiner loss later).
        w.wait_heartbeat(5.0)
        yield w
    finally:
        w.close()


def expect_error(reply: dict, request: dict | None, code: str, field: str | None = None, check_re: bool = True) -> dict:
    """Checks an error reply: valid against error.json, the code, the field, and `re`."""
    assert reply["type"] == "error", f"expected error {code}, got {json.dumps(reply)}"
    assert protocol_validate.schema_name_for(reply) == "error.json"
    protocol_validate.validator_for("error.json").validate(reply)
    protocol_validate.validate_message(reply)
    body = reply["body"]
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    if field is not None:
        assert body.get("field") == field, body
    if check_re:
        assert reply["re"] == (request["id"] if request is not None else ""), reply
    return body


def wallet_count(store: StoreClient) -> int:
    return len(store.call("wallet.list", {"includeArchived": True})["wallets"])


def last_seq(store: StoreClient) -> int:
    return store.call("status")["lastSeq"]


# ---------------------------------------------------------------------------------------------
# The whole happy path, plus the setup gate before it


def test_full_session(services, store, watcher, zmq_ctx):
    # --- before setup ------------------------------------------------------------------------
    status = store.call("status")
    assert status["service"] == "ledgerly-store"
    assert status["setupCompleted"] is False
    assert status["lastSeq"] == 0

    settings = store.call("settings.get")
    assert settings["onboardingCompleted"] is False
    assert settings.get("baseCurrency") is None

    since = store.call("events.since", {"after": 0})
    assert since["events"] == [] and since["lastSeq"] == 0
    epoch = since["epoch"]

    for mtype, body in [("wallet.create", {"name": "Too early", "currency": "EUR"}),
                        ("wallet.list", {}), ("tx.list", {}), ("category.list", {}), ("tag.list", {})]:
        request, reply = store.request(mtype, body)
        protocol_validate.validate_message(request)
        expect_error(reply, request, "setup_required")

    # --- setup.complete ----------------------------------------------------------------------
    settings = store.call("setup.complete", {"baseCurrency": "EUR", "exchangeMode": "official", "cloudSync": False})
    assert settings["onboardingCompleted"] is True
    assert settings["baseCurrency"] == "EUR"
    assert settings["exchangeMode"] == "official"
    assert settings["cloudSync"] is False

    # --- wallets -----------------------------------------------------------------------------
    eur = store.call("wallet.create", {"name": "Checking", "currency": "EUR", "type": "bank", "startingBalance": "1000.00"})
    assert (eur["currency"], eur["balance"], eur["startingBalance"], eur["archived"]) == ("EUR", "1000.00", "1000.00", False)
    jpy = store.call("wallet.create", {"name": "Yen cash", "currency": "JPY", "type": "cash", "startingBalance": "50000"})
    assert (jpy["currency"], jpy["balance"], jpy["type"]) == ("JPY", "50000", "cash")
    assert eur["id"] != jpy["id"]

    # --- categories --------------------------------------------------------------------------
    food = store.call("category.create", {"name": "Food", "kind": "expense"})
    assert food["path"] == "Food" and food.get("parentId") is None
    groceries = store.call("category.create", {"name": "Groceries", "parentId": food["id"]})
    assert groceries["parentId"] == food["id"]
    assert groceries["path"] == "Food/Groceries"
    assert groceries["kind"] == "expense", "a child takes its parent's kind"

    # --- tags --------------------------------------------------------------------------------
    tag = store.call("tag.create", {"name": "vacation"})
    assert tag["name"] == "vacation"

    # --- tx.create with splits and tags ------------------------------------------------------
    created = store.call("tx.create", {
        "kind": "expense", "walletId": eur["id"], "amount": "84.30", "date": EUR_JPY_DATE,
        "notes": "Market day", "tags": ["vacation", "market"],
        "splits": [{"amount": "50.00", "categoryId": groceries["id"], "memo": "vegetables"},
                   {"amount": "34.3", "categoryId": food["id"]}],
    })
    assert created["amount"] == "84.30" and created["currency"] == "EUR"
    assert created["walletId"] == eur["id"] and created["kind"] == "expense"
    assert sorted(created["tags"]) == ["market", "vacation"]
    assert [(s["amount"], s["categoryId"]) for s in created["splits"]] == [("50.00", groceries["id"]), ("34.30", food["id"])]
    assert created["splits"][0].get("memo") == "vegetables"
    assert created.get("transfer") is None
    assert created.get("categoryId") is None, "a split transaction's categories are its parts'"

    # --- tx.transfer EUR -> JPY with toAmount ------------------------------------------------
    transfer = store.call("tx.transfer", {"fromWalletId": eur["id"], "toWalletId": jpy["id"], "amount": "100.00",
                                          "toAmount": "16250", "date": EUR_JPY_DATE, "notes": "Cash for Tokyo"})
    out, inc = transfer["outgoing"], transfer["incoming"]
    assert (out["kind"], out["walletId"], out["amount"], out["currency"]) == ("expense", eur["id"], "100.00", "EUR")
    assert (inc["kind"], inc["walletId"], inc["amount"], inc["currency"]) == ("income", jpy["id"], "16250", "JPY")
    assert out["transfer"] == {"counterpartyWalletId": jpy["id"], "counterpartyTransactionId": inc["id"]}
    assert inc["transfer"] == {"counterpartyWalletId": eur["id"], "counterpartyTransactionId": out["id"]}

    # --- tx.list / tx.get --------------------------------------------------------------------
    listed = store.call("tx.list", {})
    assert listed["total"] == 3
    assert {t["id"] for t in listed["transactions"]} == {created["id"], out["id"], inc["id"]}
    by_wallet = store.call("tx.list", {"walletId": jpy["id"]})
    assert [t["id"] for t in by_wallet["transactions"]] == [inc["id"]] and by_wallet["total"] == 1
    by_category = store.call("tx.list", {"categoryId": groceries["id"]})
    assert [t["id"] for t in by_category["transactions"]] == [created["id"]], "split parts match their category"
    by_tag = store.call("tx.list", {"tag": "market"})
    assert [t["id"] for t in by_tag["transactions"]] == [created["id"]]

    fetched = store.call("tx.get", {"id": created["id"]})
    assert fetched == created

    # --- tx.update ---------------------------------------------------------------------------
    updated = store.call("tx.update", {"id": created["id"], "notes": "Farmers market", "tags": ["vacation"]})
    assert updated["notes"] == "Farmers market"
    assert updated["tags"] == ["vacation"]
    assert updated["amount"] == "84.30" and len(updated["splits"]) == 2, "only present fields change"
    assert store.call("tx.get", {"id": created["id"]})["notes"] == "Farmers market"

    # --- wallet.list: balances ---------------------------------------------------------------
    wallets = {w["id"]: w for w in store.call("wallet.list", {})["wallets"]}
    assert set(wallets) == {eur["id"], jpy["id"]}
    assert wallets[eur["id"]]["balance"] == "815.70"   # 1000.00 - 84.30 - 100.00
    assert wallets[jpy["id"]]["balance"] == "66250"    # 50000 + 16250

    # --- settings.get ------------------------------------------------------------------------
    settings = store.call("settings.get")
    assert settings["onboardingCompleted"] is True and settings["baseCurrency"] == "EUR"

    # --- events.since and status -------------------------------------------------------------
    since = store.call("events.since", {"after": 0, "limit": 1000})
    assert since["epoch"] == epoch
    logged = since["events"]
    assert logged, "writes were logged"
    seqs = [e["seq"] for e in logged]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"seq must be consecutive: {seqs}"
    assert since["lastSeq"] == seqs[-1]
    for event in logged:
        protocol_validate.validate_message(event)
        assert event["epoch"] == epoch
    types = [e["type"] for e in logged]
    assert types[0] == "setup.completed"
    assert types.count("wallet.created") == 2
    assert types.count("category.created") == 2
    assert types.count("tx.created") == 3           # one tx.create and two transfer legs
    assert types.count("tx.updated") == 1
    assert {e["data"]["name"] for e in logged if e["type"] == "tag.created"} >= {"vacation"}
    wallet_events = [e for e in logged if e["type"] == "wallet.created"]
    assert [e["id"] for e in wallet_events] == [str(eur["id"]), str(jpy["id"])]
    assert wallet_events[0]["data"] == eur

    later = store.call("events.since", {"after": seqs[-2]})
    assert [e["seq"] for e in later["events"]] == [seqs[-1]]

    status = store.call("status")
    assert status["setupCompleted"] is True
    assert status["lastSeq"] == since["lastSeq"]
    assert status["epoch"] == epoch

    # --- the published stream matches the log ------------------------------------------------
    watcher.wait_for_seq(since["lastSeq"])
    published = watcher.events
    pseqs = [e["seq"] for e in published]
    assert all(a < b for a, b in zip(pseqs, pseqs[1:])), f"published seq not strictly increasing: {pseqs}"
    assert pseqs == seqs, "every logged change was published once, in order"
    assert published == logged
    beat = watcher.wait_heartbeat(3.0)
    assert beat["epoch"] == epoch and beat["lastSeq"] == since["lastSeq"]
    assert watcher.heartbeats, "at least one heartbeat"


def test_rates_and_alerts_answer_status(services, zmq_ctx):
    for name, service in [("rates.cmd", "ledgerly-rates"), ("alerts.cmd", "ledgerly-alerts")]:
        client = StoreClient(services.endpoint(name), zmq_ctx)
        assert client.call("status")["service"] == service
        request, reply = client.request("wallet.list", {})
        expect_error(reply, request, "unknown_type")


def test_heartbeat_every_second(services, watcher):
    first = watcher.wait_heartbeat(3.0)
    started = time.monotonic()
    second = watcher.wait_heartbeat(3.0)
    assert time.monotonic() - started < 2.5
    assert first["ts"] < second["ts"]
    assert second["lastSeq"] == 0


# ---------------------------------------------------------------------------------------------
# Idempotency


def test_retry_with_same_key_returns_same_reply_and_changes_nothing(ready_store, watcher):
    store = ready_store
    key = str(uuid.uuid4())
    body = {"name": "Savings", "currency": "EUR", "startingBalance": "10.00"}
    first = store.call("wallet.create", body, key=key)
    count, seq = wallet_count(store), last_seq(store)
    watcher.wait_for_seq(seq)
    published_before = len(watcher.events)

    retry_request, retry = store.request("wallet.create", dict(body), key=key)
    protocol_validate.validate_message(retry)
    assert retry["type"] == "wallet.create.ok" and retry["re"] == retry_request["id"]
    assert retry["body"] == first, "a retry gets the original reply body"
    assert wallet_count(store) == count == 1
    assert last_seq(store) == seq, "a retry logs no change"
    watcher.wait_heartbeat(3.0)
    assert len(watcher.events) == published_before, "a retry publishes no event"


def test_same_key_with_different_body_is_conflict(ready_store):
    store = ready_store
    key = str(uuid.uuid4())
    store.call("wallet.create", {"name": "Savings", "currency": "EUR"}, key=key)
    count, seq = wallet_count(store), last_seq(store)

    request, reply = store.request("wallet.create", {"name": "Other", "currency": "EUR"}, key=key)
    expect_error(reply, request, "conflict", field="key")
    request, reply = store.request("tag.create", {"name": "Savings"}, key=key)
    expect_error(reply, request, "conflict", field="key")
    assert wallet_count(store) == count
    assert last_seq(store) == seq
    assert store.call("tag.list")["tags"] == []


def test_write_without_key_is_validation_failed(ready_store):
    request, reply = ready_store.request("wallet.create", {"name": "No key", "currency": "EUR"}, key=False)
    expect_error(reply, request, "validation_failed", field="key")
    assert wallet_count(ready_store) == 0


# ---------------------------------------------------------------------------------------------
# Error replies


@pytest.mark.parametrize("frame", [b"{not json", b"[1, 2, 3]", b"\"text\"", b"\xff\xfe"])
def test_malformed_frame(store, frame):
    reply = store.send_frame(frame)
    expect_error(reply, None, "malformed")


STATUS_FRAME = '{"v":1,"id":"strict-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}'


@pytest.mark.parametrize("frame", [
    b'{"v":1,"id":"strict-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{},}',
    STATUS_FRAME.encode("utf-16-le"),
    STATUS_FRAME.encode("utf-16"),
    STATUS_FRAME.encode("utf-32-be"),
    b"\xef\xbb\xbf" + STATUS_FRAME.encode(),
    b'{"v":1,"id":"strict-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{"a":01}}',
], ids=["trailing comma", "utf-16-le", "utf-16 with bom", "utf-32-be", "leading bom", "leading zero"])
def test_frames_that_are_not_strict_json_are_malformed(store, frame):
    # PROTOCOL.md §2: one RFC 8259 document in UTF-8 without a byte order mark.
    expect_error(store.send_frame(frame), None, "malformed")


@pytest.mark.parametrize("frame, code, field", [
    ('{"v":1,"id":"strict-1","type":"status","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k","body":{"name":"Dup"}}', "malformed", "type"),
    ('{"v":1,"id":"strict-1","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k","body":{"name":"A","name":"B"}}', "malformed", "body.name"),
    ('{"v":1,"id":"strict-1","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k","body":{"name":"nul\\u0000after"}}', "validation_failed", "body.name"),
    ('{"v":1,"id":"strict-1","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"K\\u0000A","body":{"name":"T"}}', "validation_failed", "key"),
    ('{"v":1.0,"id":"strict-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}', "validation_failed", "v"),
    ('{"v":1,"id":"strict-1","type":"status","ts":"2026-11-21T12:00:00.000Z"}', "malformed", "body"),
], ids=["type twice", "body member twice", "nul in a value", "nul in the key", "version 1.0", "no body"])
def test_strict_frame_rules(ready_store, frame, code, field):
    expect_error(ready_store.send_frame(frame.encode()), {"id": "strict-1"}, code, field=field)
    assert ready_store.call("tag.list")["tags"] == []


def test_empty_id_is_malformed(store):
    msg = store.envelope("status", {})
    msg["id"] = ""
    expect_error(store.send(msg), None, "malformed", field="id")


def test_ids_round_trip_exactly(store):
    # A leading U+FEFF is part of the id: `re` repeats it (Python's json keeps it too).
    msg = store.envelope("status", {})
    msg["id"] = "\ufeff" + msg["id"]
    reply = store.send(msg)
    assert reply["type"] == "status.ok" and reply["re"] == msg["id"]


def test_error_messages_quote_input_capped_and_escaped(ready_store):
    request, reply = ready_store.request("x\n" + "t" * 100_000, {})
    body = expect_error(reply, request, "unknown_type", field="type")
    assert len(body["message"]) < 200 and "\n" not in body["message"], body["message"][:300]


def test_envelope_missing_fields_is_malformed(store):
    msg = store.envelope("status", {})
    del msg["ts"]
    reply = store.send(msg)
    expect_error(reply, msg, "malformed", field="ts", check_re=True)


@pytest.mark.parametrize("case", ["v=2", "missing ts", "key not a string"])
def test_envelope_error_reply_names_readable_id(store, case):
    msg = store.envelope("status", {})
    if case == "v=2":
        msg["v"] = 2
    elif case == "missing ts":
        del msg["ts"]
    else:
        msg["key"] = 7
    reply = store.send(msg)
    assert reply["type"] == "error"
    protocol_validate.validate_message(reply)
    assert reply["re"] == msg["id"], reply


def test_unknown_type(ready_store):
    request, reply = ready_store.request("wallet.explode", {"id": 1})
    expect_error(reply, request, "unknown_type", field="type")


def test_unknown_type_before_setup(store):
    request, reply = store.request("nonsense", {})
    expect_error(reply, request, "unknown_type")


def test_unsupported_version(ready_store):
    # `re` is checked in test_envelope_error_reply_names_readable_id.
    request, reply = ready_store.request("status", {}, v=2)
    expect_error(reply, request, "unsupported_version", field="v", check_re=False)
    request, reply = ready_store.request("wallet.create", {"name": "V2", "currency": "EUR"}, v=2)
    expect_error(reply, request, "unsupported_version", field="v", check_re=False)
    assert wallet_count(ready_store) == 0


def test_unknown_body_field_is_named(ready_store):
    store = ready_store
    request, reply = store.request("wallet.create", {"name": "Typo", "currency": "EUR", "colour": "red"})
    expect_error(reply, request, "validation_failed", field="body.colour")
    assert wallet_count(store) == 0

    wallet = store.call("wallet.create", {"name": "Cash", "currency": "EUR"})
    food = store.call("category.create", {"name": "Food", "kind": "expense"})
    request, reply = store.request("tx.create", {
        "kind": "expense", "walletId": wallet["id"], "amount": "10.00", "date": EUR_JPY_DATE,
        "splits": [{"amount": "5.00", "categoryId": food["id"]},
                   {"amount": "5.00", "categoryId": food["id"], "memoo": "typo"}]})
    expect_error(reply, request, "validation_failed", field="body.splits[1].memoo")
    assert store.call("tx.list")["total"] == 0


def test_unknown_envelope_field_is_ignored(ready_store):
    msg = ready_store.envelope("status", {}, traceId="abc")
    reply = ready_store.send(msg)
    protocol_validate.validate_message(reply)
    assert reply["type"] == "status.ok"


@pytest.mark.parametrize("body, field", [
    ({"name": "Bad", "currency": "EUR", "startingBalance": 5000}, "body.startingBalance"),
    ({"name": "Bad", "currency": "EUR", "startingBalance": "12.345"}, "body.startingBalance"),
    ({"name": "Bad", "currency": "EUR", "startingBalance": "1e3"}, "body.startingBalance"),
    ({"currency": "EUR"}, "body.name"),
])
def test_invalid_wallet_values(ready_store, body, field):
    request, reply = ready_store.request("wallet.create", body)
    expect_error(reply, request, "validation_failed", field=field)
    assert wallet_count(ready_store) == 0


def test_ledger_command_before_setup_is_setup_required(store):
    request, reply = store.request("wallet.create", {"name": "Early", "currency": "EUR"})
    expect_error(reply, request, "setup_required")
    request, reply = store.request("tx.get", {"id": 1})
    expect_error(reply, request, "setup_required")
    # Nothing was created: after setup the ledger is empty.
    store.call("setup.complete", {"baseCurrency": "EUR", "exchangeMode": "official", "cloudSync": False})
    assert wallet_count(store) == 0


def test_not_found(ready_store):
    request, reply = ready_store.request("wallet.get", {"id": 4242})
    expect_error(reply, request, "not_found")
    request, reply = ready_store.request("tx.get", {"id": 4242})
    expect_error(reply, request, "not_found")


# ---------------------------------------------------------------------------------------------
# Timestamps: "ISO 8601 UTC with milliseconds" (PROTOCOL.md §3, §8). The schema's `timestamp`
# has no pattern, so validate_message cannot see this; check the format directly.

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
TIMESTAMP_FIELDS = {"ts", "createdAt", "updatedAt", "startedAt"}


def bad_timestamps(value, path="") -> list[str]:
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            where = f"{path}.{key}" if path else key
            if key in TIMESTAMP_FIELDS and isinstance(child, str) and not TIMESTAMP.match(child):
                found.append(f"{where}={child!r}")
            found += bad_timestamps(child, where)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += bad_timestamps(child, f"{path}[{index}]")
    return found


def test_timestamps_have_milliseconds_after_writes(ready_store, watcher):
    store = ready_store
    replies = []
    wallet = store.call("wallet.create", {"name": "Cash", "currency": "EUR"})
    replies.append(wallet)
    replies.append(store.call("category.create", {"name": "Food", "kind": "expense"}))
    replies.append(store.call("tx.create", {"kind": "income", "walletId": wallet["id"], "amount": "5", "date": EUR_JPY_DATE}))
    for mtype in ("status", "settings.get", "wallet.list", "tx.list", "category.list"):
        request, reply = store.request(mtype, {})
        replies.append(reply)
    replies.append(store.request("events.since", {"after": 0})[1])
    replies.append(watcher.wait_heartbeat(3.0))
    assert bad_timestamps(replies) == []


def test_settings_timestamp_before_setup_has_milliseconds(store):
    settings = store.call("settings.get")
    assert bad_timestamps(settings) == []


# ---------------------------------------------------------------------------------------------
# Rates: before setup, confirmation, overrides, base amounts filled in, provider health (§7, §12)


def ts_in(seconds: int) -> str:
    t = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def official_profile(store: StoreClient) -> dict:
    return next(p for p in store.call("rates.profile.list")["profiles"] if p["name"] == "official")


def test_rates_before_setup_arrive_and_preview_without_opening_the_ledger(store, watcher):
    official = official_profile(store)
    assert store.call("rates.provider.list") == {"providers": []}
    batch = store.call("rates.batch", {"profileId": official["id"], "source": "ecb", "rates": ECB_RATES})
    assert batch == {"stored": 2, "confirmed": 0, "skipped": 0, "backfilled": 0, "corrected": 0}
    listed = store.call("rates.list", {"profileId": official["id"]})["rates"]
    assert {(r["base"], r["quote"]) for r in listed} == {("EUR", "USD"), ("EUR", "JPY")}
    # Dated 2026-10-30: stale however recently fetched, as age counts from the rate's own moment (D401).
    assert all(r["stale"] is True and r.get("confirmedAt") for r in listed), "weeks old, fetched just now"

    preview = store.call("convert", {"amount": "100", "from": "USD", "to": "EUR", "mode": "official", "preview": True})
    assert (preview["id"], preview["result"], preview["to"]) == (0, "89.51", "EUR")
    status = store.call("rates.provider.report", {
        "name": "ecb", "profile": "official", "attemptedAt": now_ts(), "consecutiveFailures": 0,
        "nextAttemptAt": ts_in(3600), "stored": 2, "confirmed": 0})
    assert status["consecutiveFailures"] == 0 and status.get("lastError") is None

    for mtype, body in [("rates.set", {"base": "USD", "quote": "EUR", "rate": "0.9"}),
                        ("rates.override.end", {"base": "USD", "quote": "EUR"}),
                        ("rates.history", {"base": "EUR", "quote": "USD"}),
                        ("convert.history", {}), ("wallet.create", {"name": "Early", "currency": "EUR"})]:
        request, reply = store.request(mtype, body)
        protocol_validate.validate_message(request)
        expect_error(reply, request, "setup_required")

    # A preview keeps nothing: the log has the rates and the provider's status, no conversion.
    logged = store.call("events.since", {"after": 0})["events"]
    assert [e["type"] for e in logged] == ["rates.updated", "rates.provider.status"]
    assert logged[1]["entity"] == "rate_provider" and logged[1]["id"] == "ecb"
    watcher.wait_for_seq(logged[-1]["seq"])
    assert watcher.events == logged


def test_confirmation_overrides_backfill_and_provider_health(ready_store, watcher):
    store = ready_store
    official = official_profile(store)
    ecb = {"profileId": official["id"], "source": "ecb", "rates": ECB_RATES}

    # A transaction recorded before any rate is known waits for its base amount…
    yen = store.call("wallet.create", {"name": "Yen cash", "currency": "JPY"})
    ramen = store.call("tx.create", {"kind": "expense", "walletId": yen["id"], "amount": "5000", "date": EUR_JPY_DATE})
    assert ramen.get("baseAmount") is None and ramen["baseCurrency"] == "EUR"

    # …and gets it when the rates arrive.
    assert store.call("rates.batch", ecb) == {"stored": 2, "confirmed": 0, "skipped": 0, "backfilled": 1, "corrected": 0}
    filled = store.call("tx.get", {"id": ramen["id"]})
    assert filled["baseAmount"] == "28.46"                      # 5000 ÷ 175.68
    assert filled["baseConversion"]["source"] == "ecb"

    # The same rates again are confirmed, not stored twice; another value for the same moment
    # is a correction, kept beside the first, newest first (D402).
    assert store.call("rates.batch", ecb) == {"stored": 0, "confirmed": 2, "skipped": 0, "backfilled": 0, "corrected": 0}
    changed = dict(ecb, rates=[{"base": "EUR", "quote": "USD", "rate": "1.2", "asOf": ECB_AS_OF}])
    assert store.call("rates.batch", changed) == {"stored": 0, "confirmed": 0, "skipped": 0, "backfilled": 0, "corrected": 1}
    assert [r["rate"] for r in store.call("rates.history", {"base": "EUR", "quote": "USD"})["rates"]] == ["1.2", "1.1172"]

    # An override typed in the other direction beats the feed's EUR→USD until it is ended.
    override = store.call("rates.set", {"base": "USD", "quote": "EUR", "rate": "0.9", "customOverride": True})["rate"]
    assert override["customOverride"] is True and override.get("overrideEndedAt") is None
    assert store.call("convert", {"amount": "100", "from": "EUR", "to": "USD", "preview": True})["result"] == "111.11"
    ended = store.call("rates.override.end", {"base": "EUR", "quote": "USD"})["ended"]  # either order names it
    assert [(r["id"], r["base"], r["quote"], r["rate"]) for r in ended] == [(override["id"], "USD", "EUR", "0.9")]
    assert ended[0]["overrideEndedAt"]
    assert store.call("convert", {"amount": "100", "from": "EUR", "to": "USD", "preview": True})["result"] == "120.00"  # the correction
    request, reply = store.request("rates.override.end", {"base": "USD", "quote": "EUR"})
    expect_error(reply, request, "not_found")
    assert store.call("convert.history") == {"conversions": []}, "previews are not kept"

    # Provider health: a failure keeps the last success and its counts.
    ok = store.call("rates.provider.report", {
        "name": "ecb", "profile": "official", "attemptedAt": now_ts(), "consecutiveFailures": 0,
        "nextAttemptAt": ts_in(3600), "stored": 2, "confirmed": 0})
    failing = store.call("rates.provider.report", {
        "name": "ecb", "profile": "official", "attemptedAt": now_ts(),
        "error": "HTTP 429: the provider's rate limit was reached; it asked for 120 s before the next request",
        "consecutiveFailures": 1, "nextAttemptAt": ts_in(120), "stored": 0, "confirmed": 0})
    assert failing["lastSuccessAt"] == ok["lastAttemptAt"]
    assert failing["lastError"].startswith("HTTP 429") and failing["consecutiveFailures"] == 1
    assert (failing["stored"], failing["confirmed"]) == (2, 0)
    assert store.call("rates.provider.list")["providers"] == [failing]

    # Every change was logged and published, each valid against its schema (the watcher checks;
    # it subscribed after setup.complete, so it starts with the wallet).
    since = store.call("events.since", {"after": 0, "limit": 1000})
    types = [e["type"] for e in since["events"]]
    assert types.count("rates.updated") == 4           # three batches that stored, confirmed or corrected, one rates.set
    assert types.count("tx.updated") == 1              # the base amount filled in
    assert types.count("rates.override.ended") == 1
    assert types.count("rates.provider.status") == 2
    assert "conversion.recorded" not in types
    ended_event = next(e for e in since["events"] if e["type"] == "rates.override.ended")
    assert (ended_event["entity"], ended_event["id"]) == ("rates", str(override["id"]))
    watcher.wait_for_seq(since["lastSeq"])
    after_setup = [e for e in since["events"] if e["type"] != "setup.completed"]
    assert [e for e in watcher.events if e["type"] != "setup.completed"] == after_setup
