"""`make install` as a user runs it: binaries stripped, the four services one binary that each
service's name links to, man pages `man -l` reads, a bash completion script that completes a
wallet name from the running store and file paths for file arguments, systemd user units that
run the installed binaries, and `make uninstall` leaving nothing behind. The debug build is
installed (CONFIGURATION=debug) to reuse the test build; the release build installs the same tree."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import REPO, base_env


def make(target: str, prefix: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-s", target, f"PREFIX={prefix}", "CONFIGURATION=debug"], cwd=REPO,
                          capture_output=True, text=True, timeout=900)


def build_for_install() -> None:
    """`make` (the debug build the tests already made), as a user runs it
    before `sudo make install`."""
    built = make("build", Path("/nonexistent"))
    assert built.returncode == 0, built.stdout + built.stderr


def complete(prefix: Path, home: Path, words: list[str], cwd: Path | None = None) -> list[str]:
    """What the installed bash completion offers for the last of `words` (as if TAB was pressed
    after them), through bash itself with the script sourced."""
    line = " ".join(words)
    script = f"""
source '{prefix}/share/bash-completion/completions/ledgerly'
COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}
COMP_WORDS=({" ".join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}
_ledgerly ledgerly {words[-1]!r} {words[-2]!r}
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    env = base_env(home)
    env["PATH"] = f"{prefix}/bin:{env['PATH']}"
    result = subprocess.run(["bash", "-c", script], env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if line]


def test_make_install_man_completion_units_and_uninstall(services, cli, tmp_path):
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    build_for_install()
    installed = make("install", prefix)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    # Binaries, stripped: no symbol table left.
    services_binary = prefix / "libexec/ledgerly/ledgerly-services"
    for path in (prefix / "bin/ledgerly", services_binary):
        assert os.access(path, os.X_OK) and not path.is_symlink(), path
        sections = subprocess.run(["readelf", "-S", str(path)], capture_output=True, text=True).stdout
        assert ".symtab" not in sections, f"{path.name} is not stripped"
    # The services are one binary (D504): each service's name is a relative link to it, and the
    # binary runs the service the link names.
    for service in ("ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync", "ledgerly-web"):
        link = prefix / "bin" / service
        assert link.is_symlink() and os.readlink(link) == "../libexec/ledgerly/ledgerly-services", link
        shown = subprocess.run([str(link), "--version"], capture_output=True, text=True, timeout=30)
        assert shown.returncode == 0 and shown.stdout.startswith(f"{service} "), shown
    unnamed = subprocess.run([str(services_binary)], capture_output=True, text=True, timeout=30)
    assert unnamed.returncode == 64 and "ledgerly-store" in unnamed.stderr, unnamed
    version = subprocess.run([str(prefix / "bin" / "ledgerly"), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.strip(), version

    # A man page per command, named as git's are, read by man itself, with its text whole.
    man_env = {**os.environ, "MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    page = prefix / "share/man/man1/ledgerly-tx-add.1.gz"
    shown = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, env=man_env)
    assert shown.returncode == 0, shown.stderr
    assert "ledgerly-tx-add - Record" in shown.stdout and "--wallet" in shown.stdout, shown.stdout
    csv_page = subprocess.run(["man", "-l", str(prefix / "share/man/man1/ledgerly-import-csv.1.gz")],
                              capture_output=True, text=True, env=man_env)
    assert "Libellé" in csv_page.stdout and "Währung" in csv_page.stdout, csv_page.stdout
    # The NAME line is what mandb and apropos index: it must carry the page's own name.
    whatis = subprocess.run(["lexgrog", str(page)], capture_output=True, text=True)
    assert '"ledgerly-tx-add - ' in whatis.stdout, whatis.stdout + whatis.stderr
    dotted = [p.name for p in (prefix / "share/man/man1").glob("ledgerly.*") if p.name != "ledgerly.1.gz"]
    assert not dotted, f"pages named with dots: {dotted}"
    for service in ("ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync", "ledgerly-web"):
        assert (prefix / f"share/man/man1/{service}.1.gz").exists(), service
    assert (prefix / "share/zsh/vendor-completions/_ledgerly").exists()
    assert (prefix / "share/fish/vendor_completions.d/ledgerly.fish").exists()

    # The bash completion completes wallet names from the store this home runs.
    for args in (("setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes"),
                 ("wallet", "add", "Checking", "--currency", "EUR"),
                 ("wallet", "add", "Cash", "--currency", "EUR"),
                 ("wallet", "add", "Savings", "--currency", "EUR")):
        assert cli(*args).returncode == 0
    assert complete(prefix, services.home, ["ledgerly", "tx", "add", "--wallet", "C"]) == ["Cash", "Checking"]
    assert complete(prefix, services.home, ["ledgerly", "tx", "add", "--wallet", "Sa"]) == ["Savings"]
    assert "add" in complete(prefix, services.home, ["ledgerly", "tx", "a"])
    # File arguments complete file paths (issue 46): a statement, --mapping, a backup to restore.
    files = tmp_path / "files"
    files.mkdir()
    (files / "statement.csv").write_text("")
    (files / "mapping.json").write_text("")
    assert complete(prefix, services.home, ["ledgerly", "import", "csv", "st"], cwd=files) == ["statement.csv"]
    assert complete(prefix, services.home, ["ledgerly", "import", "csv", "statement.csv", "--mapping", "m"], cwd=files) == ["mapping.json"]
    assert complete(prefix, services.home, ["ledgerly", "restore", "s"], cwd=files) == ["statement.csv"]

    # On a home with no services, the installed CLI says to start the units it was installed with.
    empty = tmp_path / "no-services"
    empty.mkdir()
    down = subprocess.run([str(prefix / "bin" / "ledgerly"), "wallet", "list"], env=base_env(empty),
                          capture_output=True, text=True, timeout=30)
    assert down.returncode == 3 and "systemctl --user start ledgerly-store" in down.stderr, down.stderr

    # The user units run the installed binaries.
    unit = (prefix / "lib/systemd/user/ledgerly-store.service").read_text()
    assert f"ExecStart={prefix}/bin/ledgerly-store --home" in unit, unit

    removed = make("uninstall", prefix)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert list(prefix.iterdir()) == []
