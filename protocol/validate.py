#!/usr/bin/env python3
"""Checks the Ledgerly protocol folder: every schema, every example, and (as a library) live messages.

    python3 protocol/validate.py                 # check all schemas and examples
    python3 protocol/validate.py msg.json ...    # also validate these message files

As a library (tests that watch real traffic):

    sys.path.insert(0, "protocol")
    from validate import load_registry, validate_message
    validate_message(json.loads(frame))         # raises jsonschema.ValidationError

Requires jsonschema 4.18+ and referencing.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

HERE = Path(__file__).resolve().parent
SCHEMAS = HERE / "schemas"
EXAMPLES = HERE / "examples"
BASE_URI = "https://ledgerly.local/protocol/schemas/"


def _schema_files() -> list[Path]:
    return sorted(SCHEMAS.rglob("*.json"))


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


@lru_cache(maxsize=1)
def _load() -> tuple[Registry, dict[str, dict[str, Any]]]:
    schemas: dict[str, dict[str, Any]] = {}
    resources = []
    for path in _schema_files():
        rel = _rel(path, SCHEMAS)
        schema = json.loads(path.read_text(encoding="utf-8"))
        expected = BASE_URI + rel
        if schema.get("$id") != expected:
            raise ValueError(f"schemas/{rel}: $id is {schema.get('$id')!r}, expected {expected!r}")
        schemas[rel] = schema
        resources.append((expected, Resource.from_contents(schema, default_specification=DRAFT202012)))
    registry: Registry = Registry().with_resources(resources).crawl()
    return registry, schemas


def load_registry() -> Registry:
    """A `referencing.Registry` holding every schema under its `$id`."""
    return _load()[0]


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema by its path relative to `schemas/` ("tx.create.json", "events/tx.created.json")."""
    return _load()[1]


def validator_for(rel: str) -> Draft202012Validator:
    """The validator of one schema, by relative file name ("wallet.create.ok.json")."""
    registry, all_schemas = _load()
    if rel not in all_schemas:
        raise ValidationError(f"no schema {rel!r} in {SCHEMAS}")
    return Draft202012Validator(all_schemas[rel], registry=registry)


def schema_name_for(message: Any) -> str:
    """Which schema describes a message: by `type`; events (objects with `seq` and `entity`) and
    heartbeats live under `events/`."""
    if not isinstance(message, dict):
        raise ValidationError("a message must be a JSON object")
    mtype = message.get("type")
    if not isinstance(mtype, str) or not mtype:
        raise ValidationError("the message has no string 'type'")
    if "seq" in message and "entity" in message:
        return f"events/{mtype}.json"
    if mtype == "heartbeat":
        return "events/heartbeat.json"
    return f"{mtype}.json"


def validate_message(message: dict) -> None:
    """Validates one decoded message (request, reply, error, event or heartbeat) against its
    schema. Raises `jsonschema.ValidationError` (the best-matching error) when it does not match,
    or when there is no schema for its type."""
    rel = schema_name_for(message)
    error = jsonschema.exceptions.best_match(validator_for(rel).iter_errors(message))
    if error is not None:
        raise error
    _check_no_fractional_numbers(message, "")


def _check_no_fractional_numbers(value: Any, path: str) -> None:
    """Money, rates and quantities are decimal strings: no JSON number on this protocol has a
    fraction or an exponent."""
    if isinstance(value, float):
        raise ValidationError(f"{path or '(root)'}: {value!r} is a non-integer JSON number; amounts are decimal strings")
    if isinstance(value, dict):
        for key, child in value.items():
            _check_no_fractional_numbers(child, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            _check_no_fractional_numbers(child, f"{path}[{index}]")


def schema_name_for_example(rel: str) -> str | None:
    """The schema of an example file: the same relative name, or, for a named variant such as
    "tx.create.split.json" or "error.validation_failed.json", the longest prefix that names a
    schema ("tx.create.json", "error.json")."""
    known = schemas()
    stem = rel[: -len(".json")]
    while True:
        if stem + ".json" in known:
            return stem + ".json"
        folder, _, name = stem.rpartition("/")
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
        stem = f"{folder}/{name}" if folder else name


def _format(error: ValidationError) -> str:
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    return f"{where or '(root)'}: {error.message}"


def check_all(extra_files: list[str] | None = None) -> tuple[int, int, list[str]]:
    failures: list[str] = []
    try:
        all_schemas = schemas()
    except Exception as error:  # noqa: BLE001 - report and stop
        return 0, 0, [f"loading schemas: {error}"]

    for rel, schema in all_schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            failures.append(f"schemas/{rel}: not a valid 2020-12 schema: {error.message}")

    covered: set[str] = set()
    count = 0
    for path in sorted(EXAMPLES.rglob("*.json")):
        rel = _rel(path, EXAMPLES)
        count += 1
        try:
            message = json.loads(path.read_text(encoding="utf-8"), parse_float=float)
        except (OSError, ValueError) as error:
            failures.append(f"examples/{rel}: not JSON: {error}")
            continue
        target = schema_name_for_example(rel)
        if target is None:
            failures.append(f"examples/{rel}: no schema matches this file name")
            continue
        covered.add(target)
        errors = sorted(validator_for(target).iter_errors(message), key=lambda e: list(e.absolute_path))
        for error in errors:
            failures.append(f"examples/{rel} against schemas/{target}: {_format(error)}")
        if errors:
            continue
        try:
            by_type = schema_name_for(message)
            if by_type != target:
                failures.append(f"examples/{rel}: its type selects schemas/{by_type}, its file name schemas/{target}")
            validate_message(message)
        except ValidationError as error:
            failures.append(f"examples/{rel}: {error.message}")

    for rel in all_schemas:
        if rel != "common.json" and rel not in covered:
            failures.append(f"schemas/{rel}: has no example in examples/")

    for name in extra_files or []:
        try:
            validate_message(json.loads(Path(name).read_text(encoding="utf-8")))
            count += 1
        except ValidationError as error:
            failures.append(f"{name}: {_format(error)}")
        except (OSError, ValueError) as error:
            failures.append(f"{name}: {error}")

    return count, len(all_schemas), failures


def main(argv: list[str]) -> int:
    count, schema_count, failures = check_all(argv[1:])
    if failures:
        for failure in failures:
            print(failure, file=sys.stderr)
        print(f"protocol: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    print(f"protocol: {count} examples valid against {schema_count} schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
