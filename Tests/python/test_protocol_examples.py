"""The protocol folder is consistent: every example validates against its schema, and every
schema has at least one example (protocol/validate.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator

from conftest import PROTOCOL_DIR, protocol_validate

EXAMPLES = PROTOCOL_DIR / "examples"
SCHEMAS = PROTOCOL_DIR / "schemas"

EXAMPLE_FILES = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.json"))
SCHEMA_FILES = sorted(p.relative_to(SCHEMAS).as_posix() for p in SCHEMAS.rglob("*.json"))


def test_check_all_reports_no_failures():
    count, schema_count, failures = protocol_validate.check_all()
    assert failures == []
    assert count == len(EXAMPLE_FILES) > 0
    assert schema_count == len(SCHEMA_FILES) > 0


def test_validate_script_exits_zero():
    result = subprocess.run([sys.executable, "-B", str(PROTOCOL_DIR / "validate.py")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "examples valid against" in result.stdout


def test_registry_resolves_every_schema_id():
    registry = protocol_validate.load_registry()
    for rel in SCHEMA_FILES:
        uri = protocol_validate.BASE_URI + rel
        assert registry.contents(uri)["$id"] == uri


@pytest.mark.parametrize("rel", SCHEMA_FILES)
def test_schema_is_valid_2020_12(rel):
    Draft202012Validator.check_schema(json.loads((SCHEMAS / rel).read_text(encoding="utf-8")))


@pytest.mark.parametrize("rel", EXAMPLE_FILES)
def test_example_is_valid_against_its_schema(rel):
    target = protocol_validate.schema_name_for_example(rel)
    assert target is not None, f"no schema for examples/{rel}"
    message = json.loads((EXAMPLES / rel).read_text(encoding="utf-8"))
    errors = list(protocol_validate.validator_for(target).iter_errors(message))
    assert errors == [], [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    # What live traffic goes through: the schema chosen by the message's own type.
    assert protocol_validate.schema_name_for(message) == target
    protocol_validate.validate_message(message)


@pytest.mark.parametrize("rel", [s for s in SCHEMA_FILES if s != "common.json"])
def test_every_schema_has_an_example(rel):
    covered = {protocol_validate.schema_name_for_example(e) for e in EXAMPLE_FILES}
    assert rel in covered, f"schemas/{rel} has no example under examples/"


@pytest.mark.parametrize("bad_id", ["a\nb", "a\tb", "a\x7fb", "a\x85b", "a\x00b"])
def test_a_request_id_with_a_control_character_is_refused(bad_id):
    """PROTOCOL.md §3: an id holds no control character, so every `re` can repeat its id exactly
    (issue 45, item 19); U+FEFF, a format character, is an ordinary one."""
    message = json.loads((EXAMPLES / "status.json").read_text(encoding="utf-8"))
    message["id"] = bad_id
    assert list(protocol_validate.validator_for("status.json").iter_errors(message)) != []
    message["id"] = "\ufeffid"
    assert list(protocol_validate.validator_for("status.json").iter_errors(message)) == []


def test_a_sync_round_says_when_the_hub_was_unreachable():
    """`sync.now.ok` carries `hubUnreachable` (issue 45, item 17): `ledgerly sync now` exits 5 for it."""
    schema = json.loads((SCHEMAS / "sync.now.ok.json").read_text(encoding="utf-8"))
    assert schema["properties"]["body"]["properties"]["hubUnreachable"]["type"] == ["boolean", "null"]
    message = json.loads((EXAMPLES / "sync.now.ok.json").read_text(encoding="utf-8"))
    message["body"]["error"] = "the sync hub at hub.home.arpa:5432 is unreachable: Connection refused"
    message["body"]["hubUnreachable"] = True
    assert list(protocol_validate.validator_for("sync.now.ok.json").iter_errors(message)) == []
    message["body"]["hubUnreachable"] = "yes"
    assert list(protocol_validate.validator_for("sync.now.ok.json").iter_errors(message)) != []
