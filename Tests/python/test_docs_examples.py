"""Every `$ …` example in README.md and docs/*.md runs as written.

A documented command that fails is a broken promise, so the examples are a test: each file's
`console`/`sh` blocks are read in order, every line that starts with `$ ` (with `\\` continuation
lines) is run by a shell in a working folder that holds the files the examples name (small
fixtures written here), on a fresh default home per markdown file with the four services
running, `ledgerly` on PATH and HOME pointing at a temporary folder, so `~/…` paths work too.

What is checked for each command:
- it exits 0, unless the line after it in the block starts with `error:`: then it must fail
  and print that message and the lines shown after it (on standard error);
- any other lines shown after it (its output) are printed by it, compared line by line with
  runs of spaces taken as one and an age such as `3 s` taken as any age.

A command that cannot run here is listed in `NOT_RUN` with the reason, and an entry that no
longer matches any example fails the test, so the list cannot go stale.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import BIN_DIR, REPO, SERVICES, Services, binary

DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

# (document name, the start of the command after `$ `) → why it is not run here.
NOT_RUN: dict[tuple[str, str], str] = {
    ("README.md", "ledgerly setup  "): "interactive; driven through a pseudo-terminal by test_setup_interactive.py",
    ("README.md", "ledgerly sync "): "needs a PostgreSQL hub; Tests/EndToEndTests/SyncTests.swift runs these against a real one",
    ("README.md", "ledgerly alerts --follow"): "follows until interrupted; AlertsTests.swift follows alerts",
    ("README.md", "ledgerly web open"): "needs ledgerly-web, which this test does not start; test_web.py signs in with the link it prints",
    ("README.md", "ledgerly import undo csv-1f2e3d4c"): "the import id is the one the import printed; ImportPipelineTests.swift undoes imports",
    ("docs/reports-import-export.md", "ledgerly import csv statement.csv --wallet Checking  "):
        "its output shows a 10,000-row statement with two duplicates; BankFormatImportTests.swift imports statements",
}

AGE = re.compile(r"\b\d+ (?:s|min|h|d)\b")

# Files the examples name, written into the working folder before a document's examples run.
FIXTURES: dict[str, str] = {
    "statement.csv": "Date,Amount,Description\n2026-11-02,-12.50,Bakery\n2026-11-03,-40.00,Lidl\n2026-11-05,1500.00,Salary\n",
    "giro.csv": (
        "Kontoauszug Giro\nZeitraum: 01.11.2026 - 30.11.2026\nKontostand: 1.234,56 EUR\n\n"
        "Buchungstag;Auftraggeber;Verwendungszweck;Soll;Haben;Währung\n"
        "02.11.2026;LIDL Filiale 123;Einkauf;12,50;;EUR\n"
        "03.11.2026;Arbeitgeber GmbH;Gehalt November;;2.100,00;EUR\n"
    ),
    "umsaetze.csv": (
        "\"Girokonto\";\"DE00 1203 0000 0000 0000 00\"\n\"Zeitraum:\";\"01.11.2026 - 30.11.2026\"\n\n"
        "\"Buchungsdatum\";\"Wertstellung\";\"Status\";\"Zahlungspflichtige*r\";\"Zahlungsempfänger*in\";\"Verwendungszweck\";\"Umsatztyp\";\"IBAN\";\"Betrag (€)\"\n"
        "\"04.11.26\";\"04.11.26\";\"Gebucht\";\"Ich\";\"Bäckerei Müller\";\"Brötchen\";\"Ausgang\";\"DE00\";\"-4,20\"\n"
        "\"05.11.26\";\"05.11.26\";\"Gebucht\";\"Ich\";\"Stadtwerke\";\"Strom November\";\"Ausgang\";\"DE00\";\"-1.045,00\"\n"
    ),
    "checking.ofx": (
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n"
        "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n"
        "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261130<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>"
        "<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>EUR"
        "<BANKACCTFROM><BANKID>1<ACCTID>1<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20261101<DTEND>20261130"
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261106<TRNAMT>-23.10<FITID>OFX-1<NAME>Pharmacy</STMTTRN>"
        "<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261107<TRNAMT>50.00<FITID>OFX-2<NAME>Refund</STMTTRN>"
        "</BANKTRANLIST><LEDGERBAL><BALAMT>26.90<DTASOF>20261130</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    ),
    "2026-11.xml": (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>'
        "<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-30T18:00:00</CreDtTm></GrpHdr>"
        "<Stmt><Id>S1</Id><CreDtTm>2026-11-30T18:00:00</CreDtTm><Acct><Id><IBAN>DE00000000000000000000</IBAN></Id><Ccy>EUR</Ccy></Acct>"
        '<Ntry><Amt Ccy="EUR">31.40</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-08</Dt></BookgDt>'
        "<NtryDtls><TxDtls><RmtInf><Ustrd>LIDL SAGT DANKE</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>"
        '<Ntry><Amt Ccy="EUR">2100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-09</Dt></BookgDt>'
        "<NtryDtls><TxDtls><RmtInf><Ustrd>Gehalt</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>"
        "</Stmt></BkToCstmrStmt></Document>\n"
    ),
    "rules.json": '[ { "contains": "lidl", "category": "Food/Groceries", "tags": ["groceries"] } ]\n',
    "cash.qif": "!Type:Cash\nD10.11.2026\nT-8.50\nPMarket\n^\nD11.11.2026\nT-3.20\nPKiosk\n^\n",
    "trades.csv": "Type,Ticker,Date,Qty,Price\nbuy,AAPL,2026-02-10,1,110\n",
    "blue.csv": "base,quote,rate,date\nUSD,ARS,1190.25,2026-11-20\n",
}

# Files a document names differently from the README (same name, other content).
DOCUMENT_FIXTURES: dict[str, dict[str, str]] = {
    "docs/investments.md": {
        "trades.csv": "Type,Ticker,Date,Qty,Price,Commission,Amount,FX\n"
                      "BUY,AAPL,10.04.2026,1,150,1,,0.91\n"
                      "BUY,AAPL,11.04.2026,1,-3,1,,0.91\n",
    },
}

# What a document assumes was done before its first example (the README starts from nothing).
GIVEN: dict[str, list[str]] = {
    "docs/investments.md": ["ledgerly setup --base-currency EUR --exchange-mode manual --sync off --yes"],
    "docs/reports-import-export.md": [
        "ledgerly setup --base-currency EUR --exchange-mode manual --sync off --yes",
        "ledgerly wallet add Checking --currency EUR",
        "ledgerly wallet add Giro --currency EUR",
        "ledgerly wallet add Cash --currency EUR --type cash",
        "ledgerly category add Food --kind expense",
        "ledgerly category add Groceries --parent Food",
    ],
}

# The giro.json example mapping is the JSON block shown in reports-import-export.md, so the test
# reads it from there: the documented mapping is the one that is run.
MAPPING_DOC = REPO / "docs" / "reports-import-export.md"


@dataclass
class Example:
    document: str
    line: int
    command: str
    expected_error: str | None = None
    expected_output: list[str] = field(default_factory=list)


def documented_mapping() -> str:
    text = MAPPING_DOC.read_text(encoding="utf-8")
    match = re.search(r"```json\n(\{ \"delimiter\".*?)\n```", text, re.S)
    assert match, "reports-import-export.md no longer shows the giro.json mapping"
    return match.group(1) + "\n"


def strip_comment(command: str) -> str:
    """Drops a trailing `# comment` set off by two spaces or more (how the docs annotate)."""
    return re.split(r"\s{2,}#\s", command, maxsplit=1)[0].rstrip()


def examples(document: Path) -> list[Example]:
    name = str(document.relative_to(REPO))
    found: list[Example] = []
    fence: str | None = None
    current: Example | None = None
    lines = document.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            current = None
            continue
        if fence is None or fence not in ("", "console", "sh"):
            continue
        if line.startswith("$ "):
            command = line[2:]
            start = index
            while command.endswith("\\") and index < len(lines):
                command = command[:-1] + " " + lines[index].strip()
                index += 1
            current = Example(name, start, strip_comment(command))
            found.append(current)
        elif current is not None and line.strip():
            if line.startswith("error:") and not current.expected_output:
                current.expected_error = line
            else:
                current.expected_output.append(line)
    return found


def reason_not_run(example: Example, used: set) -> str | None:
    for (document, prefix), reason in NOT_RUN.items():
        if document == example.document and (example.command + "  ").startswith(prefix):
            used.add((document, prefix))
            return reason
    return None


def normalised(line: str) -> str:
    return AGE.sub("<age>", " ".join(line.split()))


class DefaultHomeServices(Services):
    """The services on the default (XDG) home of a temporary HOME, as a person runs them."""

    def __init__(self, user_home: Path):
        super().__init__(user_home / ".local" / "share" / "ledgerly")
        self.user_home = user_home

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("LEDGERLY_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR")}
        env.update({"HOME": str(self.user_home), "NO_COLOR": "1", "PATH": f"{BIN_DIR}:{env.get('PATH', '')}"})
        return env

    def start(self) -> None:
        config = self.user_home / ".config" / "ledgerly"
        config.mkdir(parents=True, mode=0o700)
        # No provider: nothing may be fetched from outside this machine (the examples' `rates
        # refresh` then has nothing to ask, which it says).
        (config / "rates.json").write_text('{"providers": [], "prices": {"enabled": false}}\n', encoding="utf-8")
        env = self.environment()
        for name in SERVICES:
            log = self.user_home / f"{name}.log"
            self.logs[name] = log
            with open(log, "wb") as out:
                self.procs[name] = subprocess.Popen(
                    [binary(name)], env=env, stdin=subprocess.DEVNULL, stdout=out,
                    stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, deadline: float = 30.0) -> None:
        import time
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            result = subprocess.run(["ledgerly", "status", "--json"], env=self.environment(),
                                    capture_output=True, text=True, timeout=15)
            if result.returncode == 0:
                return
            time.sleep(0.2)
        raise RuntimeError(f"services not ready\n{self.log_text()}")


def all_examples() -> list[Example]:
    return [example for document in DOCUMENTS for example in examples(document)]


def test_the_docs_have_examples():
    found = all_examples()
    assert len(found) > 60, f"only {len(found)} examples found: is the extraction broken?"
    assert any(e.expected_error for e in found), "no example shows an error"
    assert any(e.expected_output for e in found), "no example shows output"


@pytest.mark.parametrize("document", [d for d in DOCUMENTS if examples(d)], ids=lambda d: d.name)
def test_documented_commands_run_as_shown(document: Path):
    user_home = Path(tempfile.mkdtemp(prefix="lqd", dir="/tmp"))
    work = user_home / "work"
    work.mkdir()
    document_name = str(document.relative_to(REPO))
    for name, text in {**FIXTURES, **DOCUMENT_FIXTURES.get(document_name, {})}.items():
        (work / name).write_text(text, encoding="utf-8")
    (work / "giro.json").write_text(documented_mapping(), encoding="utf-8")
    services = DefaultHomeServices(user_home)
    used: set = set()
    failures: list[str] = []
    try:
        services.start()
        services.wait_ready()
        env = services.environment()
        for command in GIVEN.get(document_name, []):
            given = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=60)
            assert given.returncode == 0, f"{document_name}: given step failed: $ {command}\n{given.stdout}{given.stderr}"
        for example in examples(document):
            if reason_not_run(example, used):
                continue
            result = subprocess.run(example.command, shell=True, cwd=work, env=env, capture_output=True,
                                    text=True, timeout=120, stdin=subprocess.DEVNULL)
            where = f"{example.document}:{example.line}: $ {example.command}"
            if example.expected_error is not None:
                if result.returncode == 0:
                    failures.append(f"{where}\n  shows an error but exited 0:\n{result.stdout}")
                else:
                    printed = [normalised(line) for line in result.stderr.splitlines()]
                    for shown in [example.expected_error, *example.expected_output]:
                        if normalised(shown) not in printed:
                            failures.append(f"{where}\n  shows {shown!r}, which it did not print; it printed:\n{result.stderr}")
                            break
                continue
            if result.returncode != 0:
                failures.append(f"{where}\n  exited {result.returncode}:\n{result.stdout}{result.stderr}")
                continue
            printed = [normalised(line) for line in (result.stdout + result.stderr).splitlines()]
            for shown in example.expected_output:
                if normalised(shown) not in printed:
                    failures.append(f"{where}\n  shows {shown!r}, which it did not print; it printed:\n{result.stdout}{result.stderr}")
                    break
    finally:
        services.stop()
        shutil.rmtree(user_home, ignore_errors=True)
    stale = {key for key in NOT_RUN if key[0] == document_name} - used
    if stale:
        failures.append(f"NOT_RUN entries that match no example any more: {sorted(stale)}")
    assert not failures, "\n\n".join(failures)
