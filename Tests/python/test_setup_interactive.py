"""`ledgerly setup` driven through a pseudo-terminal (pexpect), plus its non-interactive paths."""

from __future__ import annotations

import json
import re

import pexpect
import pytest

from conftest import base_env, binary

TIMEOUT = 10


def setup_env(home) -> dict[str, str]:
    env = base_env(home)
    for variable in ("LC_ALL", "LC_MONETARY"):   # LANG decides the locale currency
        env.pop(variable, None)
    env["LANG"] = "de_DE.UTF-8"
    env["TERM"] = "dumb"
    return env


def spawn_setup(home) -> pexpect.spawn:
    return pexpect.spawn(binary("ledgerly"), ["setup"], env=setup_env(home), encoding="utf-8",
                         timeout=TIMEOUT, dimensions=(60, 200))


def finish(child: pexpect.spawn) -> int:
    """Waits for the process to end and returns its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def settings_json(cli) -> dict:
    result = cli("settings", "show", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def kill_children():
    children: list[pexpect.spawn] = []
    yield children
    for child in children:
        if child.isalive():
            child.terminate(force=True)


def test_interactive_setup_pause_and_resume(services, cli, kill_children):
    home = services.home

    # --- first run: steps 1 and 2, quit at step 3 ------------------------------------------
    child = spawn_setup(home)
    kill_children.append(child)
    child.expect_exact("Step 1 of 5: Welcome to Ledgerly")
    child.expect_exact("Press Enter to begin (q to quit): ")
    child.sendline("")

    child.expect_exact("Step 2 of 5: Base currency")
    child.expect(r"1\) EUR\s+\S.*\(your locale\)")           # the locale suggestion (LANG=de_DE)
    child.expect_exact("Number, code or search text [EUR] (b back, q quit): ")
    child.sendline("yen")
    child.expect_exact("Matches for 'yen':")
    child.expect_exact("Number, code or search text [EUR] (b back, q quit): ")
    matches = child.before
    assert re.search(r"\d+\) JPY\b", matches), f"JPY not among the matches:\n{matches}"
    child.sendline("JPY")

    child.expect_exact("Step 3 of 5: Exchange rates")
    child.expect_exact("converted to JPY")
    child.expect(r"Choose 1-3 \[1\] \(b back, q quit\): ")
    child.sendline("q")
    child.expect(r"Setup paused at step 3 of 5")
    assert finish(child) == 0

    settings = settings_json(cli)
    assert settings["onboardingCompleted"] is False
    progress = settings["onboardingProgress"]
    assert progress["step"] == 3
    assert progress["baseCurrency"] == "JPY"

    # --- second run: resume at step 3 ------------------------------------------------------
    child = spawn_setup(home)
    kill_children.append(child)
    child.expect_exact("Resuming setup at step 3 of 5.")
    child.expect_exact("Step 3 of 5: Exchange rates")
    child.expect_exact("converted to JPY")
    child.expect(r"Choose 1-3 \[\d\] \(b back, q quit\): ")
    child.sendline("2")

    child.expect_exact("Step 4 of 5: Sync")
    child.expect(r"Turn sync on\? \[y/N\] \(b back, q quit\): ")
    child.sendline("n")

    child.expect_exact("Step 5 of 5: Summary")
    child.expect(r"Base currency: JPY")
    child.expect(r"Exchange mode: parallel")
    child.expect(r"Sync:\s+off")
    child.expect_exact("Save and finish? [Y/n: change something] (b back, q quit): ")
    child.sendline("")
    child.expect_exact("Ledgerly is set up")
    child.expect(r"base currency JPY, parallel rates, sync off")
    assert finish(child) == 0

    settings = settings_json(cli)
    assert settings["baseCurrency"] == "JPY"
    assert settings["exchangeMode"] == "parallel"
    assert settings["cloudSync"] is False
    assert settings["onboardingCompleted"] is True

    # The ledger now answers: the store reports setup done.
    status = cli("status", "--json")
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["services"][0]["setupCompleted"] is True


def test_summary_goes_back_and_quits_once(services, cli, kill_children):
    """Going back from the summary is an ordinary step change: quitting afterwards pauses once."""
    child = spawn_setup(services.home)
    kill_children.append(child)
    child.expect_exact("Press Enter to begin (q to quit): ")
    child.sendline("")
    child.expect_exact("Number, code or search text [EUR] (b back, q quit): ")
    child.sendline("EUR")
    child.expect(r"Choose 1-3 \[1\] \(b back, q quit\): ")
    child.sendline("1")
    child.expect(r"Turn sync on\? \[y/N\] \(b back, q quit\): ")
    child.sendline("n")
    child.expect_exact("Save and finish? [Y/n: change something] (b back, q quit): ")
    child.sendline("b")
    child.expect_exact("Step 4 of 5: Sync")
    child.expect(r"Turn sync on\? \[y/N\] \(b back, q quit\): ")
    child.sendline("y")
    # Turning sync on asks for the hub and the passphrase (kept in memory, never saved).
    hub_prompt = "Hub address (postgres://user@host:5432/database; TLS with the certificate verified, unless ?sslmode=disable): "
    child.expect_exact(hub_prompt)
    # A password in the address is refused (it is asked apart, without echo) and the address asked again.
    child.sendline("postgres://ledgerly:secret@127.0.0.1:1/hub")
    child.expect_exact("--url holds a password")
    child.expect_exact(hub_prompt)
    child.sendline("postgres://ledgerly@127.0.0.1:1/hub?sslmode=disable")
    child.expect_exact("Password of the hub's user (Enter if it asks none): ")
    child.sendline("secret")
    child.expect_exact("Sync passphrase (every device needs the same one): ")
    child.sendline("a passphrase")
    child.expect(r"Sync:\s+on")
    assert "a passphrase" not in child.before and "secret" not in child.before, "neither the password nor the passphrase is echoed"
    child.expect_exact("Save and finish? [Y/n: change something] (b back, q quit): ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert child.before.count("Setup paused") == 1, child.before
    assert "Setup paused at step 5 of 5" in child.before
    child.close()
    assert child.exitstatus == 0

    settings = settings_json(cli)
    assert settings["onboardingCompleted"] is False
    assert settings["onboardingProgress"] == {"step": 5, "baseCurrency": "EUR", "exchangeMode": "official", "cloudSync": True}
    assert "secret" not in json.dumps(settings) and "a passphrase" not in json.dumps(settings)


def test_setup_without_terminal_needs_yes(services, cli):
    result = cli("setup", extra_env={"LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MONETARY": ""})
    assert result.returncode == 64, (result.stdout, result.stderr)
    assert "--yes" in result.stderr
    assert "not a terminal" in result.stderr
    assert "--base-currency EUR" in result.stderr, "the hint suggests the locale's currency"
    assert settings_json(cli)["onboardingCompleted"] is False


def test_setup_with_yes_runs_without_questions(services, cli):
    result = cli("setup", "--base-currency", "JPY", "--exchange-mode", "manual", "--sync", "on", "--yes")
    assert result.returncode == 0, result.stderr
    assert "Ledgerly is set up" in result.stdout
    settings = settings_json(cli)
    assert (settings["baseCurrency"], settings["exchangeMode"], settings["cloudSync"], settings["onboardingCompleted"]) == \
        ("JPY", "manual", True, True)
    again = cli("setup", "--yes")
    assert again.returncode == 0 and "already set up" in again.stdout


def test_wallet_add_before_setup_exits_2(services, cli):
    result = cli("wallet", "add", "X", "--currency", "EUR")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "ledgerly setup" in result.stderr
    assert result.stdout == ""


def test_setup_options_that_differ_from_a_finished_setup_are_refused(services, cli):
    """Issue 12: `setup --base-currency USD --yes` on a ledger set up in EUR exited 0 and changed nothing."""
    assert cli("setup", "--base-currency", "EUR", "--exchange-mode", "official", "--yes").returncode == 0
    refused = cli("setup", "--base-currency", "USD", "--yes")
    assert refused.returncode == 1, (refused.stdout, refused.stderr)
    assert "already set up" in refused.stderr and "--base-currency USD (it is EUR)" in refused.stderr
    assert settings_json(cli)["baseCurrency"] == "EUR"
    same = cli("setup", "--base-currency", "eur", "--yes")
    assert same.returncode == 0 and "already set up" in same.stdout, "asking for what is set is not an error"


def test_input_that_ends_in_the_wizard_is_not_success(services, cli, kill_children):
    """Issue 12: Ctrl-D in the wizard exited 0 with setup unfinished; `q` still pauses with 0."""
    child = spawn_setup(services.home)
    kill_children.append(child)
    child.expect_exact("Press Enter to begin (q to quit): ")
    child.sendeof()
    child.expect(r"input ended at step 1")
    assert finish(child) == 2
    assert settings_json(cli)["onboardingCompleted"] is False
