"""ledgerly-web's /import in a real browser (issue 47): a CSV statement uploaded, previewed
(nothing imported yet), confirmed (imported once, even when the confirm is sent twice) and undone,
with the CLI's `tx list --json` checked after each step; a row already imported shows as a
duplicate; a file over the upload limit and a file that is not a statement are refused.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from web_support import WEB_REQUIREMENTS, XSS, By, Select, WebDriverWait, artifacts, browser, expected_conditions, fit_phone_and_desktop, submit, web  # noqa: F401

pytestmark = WEB_REQUIREMENTS

STATEMENT = f"""Date,Amount,Description
2026-03-02,-12.50,Bakery
2026-03-03,-40.00,{XSS}
2026-03-05,1500.00,Salary
"""


def ok(web, *args: str) -> None:
    result = web.cli(*args)
    assert result.returncode == 0, f"{args}: {result.stderr}"


def listed(web) -> list[dict]:
    result = web.cli("tx", "list", "--wallet", "Checking", "--json")
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    return listing["transactions"] if isinstance(listing, dict) else listing


def upload(web, browser, path: Path) -> None:
    browser.get(web.base + "/import")
    Select(browser.find_element(By.ID, "wallet")).select_by_visible_text("Checking (EUR)")
    browser.find_element(By.ID, "file").send_keys(str(path))
    submit(browser, "/import")


def refusal(browser) -> str:
    return browser.find_element(By.TAG_NAME, "main").text


def test_setup_and_sign_in(web, browser):
    ok(web, "setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes")
    ok(web, "wallet", "add", "Checking", "--currency", "EUR")
    browser.get(web.sign_in_link())
    assert browser.current_url == web.base + "/"


def test_preview_confirm_and_undo_match_the_cli(web, browser, tmp_path):
    statement = tmp_path / "statement.csv"
    statement.write_text(STATEMENT)
    # The CLI's dry run of the same file: the preview must say the same.
    dry = json.loads(web.cli("import", "csv", str(statement), "--wallet", "Checking", "--dry-run", "--json").stdout)
    upload(web, browser, statement)
    assert listed(web) == [], "nothing is imported before the confirm"
    rows = browser.find_elements(By.CSS_SELECTOR, "#preview tbody tr")
    assert [r.get_attribute("class") for r in rows] == ["new", "new", "new"]
    assert f"Would import {dry['imported']} of 3 rows" in browser.find_element(By.ID, "summary").text
    assert browser.execute_script("return window.__xss === undefined")
    assert "<script>window.__xss" not in browser.page_source
    # The confirm sent twice (the same form, the same key) imports once.
    page = browser.page_source
    csrf = re.search(r'name="_csrf" value="([0-9a-f]{64})"', page).group(1)
    key = re.search(r'name="_key" value="([0-9a-f-]{36})"', page).group(1)
    preview = re.search(r'name="preview" value="([^"]+)"', page).group(1)
    cookie = "ledgerly_session=" + browser.get_cookie("ledgerly_session")["value"]
    status, headers, _ = web.request("POST", "/import/confirm", {"_csrf": csrf, "_key": key, "preview": preview}, cookie=cookie)
    assert status == 303, headers
    submit(browser, "/import/confirm")
    imported = listed(web)
    assert sorted(t["amount"] for t in imported) == ["12.50", "1500.00", "40.00"], imported
    assert "Imported 3 transactions" in browser.find_element(By.ID, "result").text
    # The same statement again: every row a duplicate.
    upload(web, browser, statement)
    rows = browser.find_elements(By.CSS_SELECTOR, "#preview tbody tr")
    assert [r.get_attribute("class") for r in rows] == ["duplicate"] * 3
    assert "duplicate" in rows[0].text
    browser.back()
    browser.back()
    assert "/import/done" in browser.current_url
    submit(browser, "/import/undo")
    assert "Deleted the 3 transactions" in browser.find_element(By.ID, "result").text
    assert listed(web) == []


def test_oversized_and_non_statement_files_are_refused(web, browser, tmp_path):
    picture = tmp_path / "photo.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    upload(web, browser, picture)
    assert "not a statement" in refusal(browser) and "nothing was imported" in refusal(browser)
    prose = tmp_path / "letter.txt"
    prose.write_text("Dear bank,\nplease send me my statement.\n")
    upload(web, browser, prose)
    assert "Refused" in refusal(browser) and "nothing was imported" in refusal(browser)
    big = tmp_path / "big.csv"
    big.write_text("Date,Amount,Description\n" + "2026-03-02,-1.00,x\n" * 300_000)
    assert big.stat().st_size > 4 * 1024 * 1024
    upload(web, browser, big)
    assert "larger than this page accepts" in refusal(browser)
    assert listed(web) == []


def test_the_page_fits_a_phone(web, browser, artifacts):
    assert fit_phone_and_desktop(web, browser, artifacts, {"import": "/import"}) == []
