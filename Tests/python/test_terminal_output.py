"""Colours and alignment as a terminal user meets them: `NO_COLOR` as no-color.org specifies
(only a non-empty value turns colours off), `TERM=dumb` plain, `--color auto|always|never`, and
tables aligned by display width, checked against Python's own East Asian width table."""

from __future__ import annotations

import os
import re
import unicodedata

import pexpect
import pytest

from conftest import base_env, binary

ESCAPE = "\x1b["


def ledger_with_a_negative_wide_named_wallet(cli) -> None:
    for args in (
        ("setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes"),
        ("wallet", "add", "Café", "--currency", "EUR", "--starting-balance", "129.30"),
        ("wallet", "add", "東京 現金", "--currency", "EUR", "--starting-balance", "-500"),
        ("wallet", "add", "ｶﾀｶﾅ", "--currency", "EUR", "--starting-balance", "8"),
    ):
        result = cli(*args)
        assert result.returncode == 0, result.stderr


def on_a_terminal(home, args: list[str], **env_changes: str | None) -> str:
    """What `ledgerly ARGS` writes on a pseudo-terminal with the environment changed as given
    (None removes a variable)."""
    env = base_env(home)
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR", None)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    child = pexpect.spawn(binary("ledgerly"), args, env=env, encoding="utf-8", timeout=20, dimensions=(40, 200))
    output = child.read()
    child.close()
    assert child.exitstatus == 0, output
    return output


@pytest.mark.parametrize("no_color, colored", [(None, True), ("", True), ("1", False), ("0", False), ("false", False)])
def test_no_color_turns_colours_off_only_when_it_holds_a_value(services, cli, no_color, colored):
    ledger_with_a_negative_wide_named_wallet(cli)
    output = on_a_terminal(services.home, ["wallet", "list"], NO_COLOR=no_color)
    assert (ESCAPE in output) == colored, repr(output)


def test_a_dumb_terminal_gets_plain_text(services, cli):
    ledger_with_a_negative_wide_named_wallet(cli)
    assert ESCAPE not in on_a_terminal(services.home, ["wallet", "list"], TERM="dumb")
    assert ESCAPE in on_a_terminal(services.home, ["wallet", "list"], TERM="xterm")


def test_the_color_option_overrides_terminal_and_environment(services, cli):
    ledger_with_a_negative_wide_named_wallet(cli)
    home = services.home
    assert ESCAPE not in on_a_terminal(home, ["wallet", "list", "--color", "never"])
    assert ESCAPE in on_a_terminal(home, ["wallet", "list", "--color", "always"], NO_COLOR="1", TERM="dumb")
    # Into a pipe: plain unless asked for.
    piped = cli("wallet", "list")
    assert piped.returncode == 0 and ESCAPE not in piped.stdout
    forced = cli("wallet", "list", "--color=always")
    assert forced.returncode == 0 and "\x1b[31m-500.00\x1b[0m" in forced.stdout, forced.stdout
    refused = cli("wallet", "list", "--color", "sometimes")
    assert refused.returncode == 64 and "--color" in refused.stderr, refused.stderr


def display_width(text: str) -> int:
    """Columns as a terminal counts them, from Python's Unicode data (an oracle independent of
    Ledgerly's own table)."""
    width = 0
    for character in text:
        if unicodedata.combining(character) or unicodedata.category(character) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1
    return width


def test_tables_align_by_display_width(services, cli):
    ledger_with_a_negative_wide_named_wallet(cli)
    result = cli("wallet", "list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = lines[0]
    # The TYPE column starts at the same display column on every line.
    type_column = display_width(header[: header.index("TYPE")])
    rows = [line for line in lines[1:] if line.strip()]
    assert len(rows) == 3
    for line in rows:
        start = line.index("bank")
        assert display_width(line[:start]) == type_column, (line, lines)
