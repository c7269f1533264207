"""ledgerly-web's reports and net worth in a real browser (issue 47): /reports/categories,
/reports/cashflow, /reports/payees, /networth with its valuation and payment forms, the
dashboard's rate warnings, and the navigation at 360 px, against the real services on this
module's own home.

The home has one rate provider that cannot be reached (so `ledgerly status` reports it failing)
and a rate set by hand long ago (so `ledgerly rates list` marks it stale). The tests run in file
order and build on each other: setup and data by CLI writes, then each page is compared with the
CLI's `--json` for the same question; what the browser writes must show in the CLI's `--json`.
"""

from __future__ import annotations

import datetime
import json
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException

from web_support import WEB_REQUIREMENTS, XSS, By, Select, Web, artifacts, browser, fit_phone_and_desktop, submit  # noqa: F401

pytestmark = WEB_REQUIREMENTS

TODAY = datetime.date.today()


def month_back(count: int) -> str:
    """"YYYY-MM" of the month `count` months before this one."""
    total = TODAY.year * 12 + TODAY.month - 1 - count
    return f"{total // 12:04d}-{total % 12 + 1:02d}"


M1, M2, M3 = month_back(3), month_back(2), month_back(1)
UNREACHABLE = "http://127.0.0.1:9/eurofxref-daily.xml"


@pytest.fixture(scope="module")
def web():
    """The shared services-plus-web home, with a rates.json whose one provider cannot be reached."""
    home = Path(tempfile.mkdtemp(prefix="lwr", dir="/tmp"))
    (home / "rates.json").write_text(json.dumps({"providers": [{"name": "unreachable", "format": "ecb-daily-xml", "profile": "official", "url": UNREACHABLE}]}))
    web = Web(home)
    try:
        web.start()
        yield web
    finally:
        web.stop()
        shutil.rmtree(home, ignore_errors=True)


def cli_json(web, *args: str):
    result = web.cli(*args, "--json")
    assert result.returncode == 0, f"{args}: {result.stderr}"
    return json.loads(result.stdout)


def ok(web, *args: str) -> None:
    result = web.cli(*args)
    assert result.returncode == 0, f"{args}: {result.stderr}"


def errors(browser) -> list[str]:
    return [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]


def set_value(browser, element_id: str, value: str) -> None:
    """Sets a field's value directly (a date or month input's typing order depends on the locale)."""
    browser.execute_script("document.getElementById(arguments[0]).value = arguments[1]", element_id, value)


def settled(check) -> None:
    """Runs `check` again when the live script swapped the page's main content while it read (a
    change in the ledger: the snapshots ledgerly-alerts takes, a provider's report)."""
    for _ in range(10):
        try:
            return check()
        except StaleElementReferenceException:
            time.sleep(0.1)
    return check()


def text_of(element) -> str:
    """The element's text even inside a closed <details> (Selenium's .text is empty there)."""
    return element.get_attribute("textContent").strip()


@pytest.fixture(scope="module")
def ledger(web, browser):
    """Setup, data by CLI writes, and the browser signed in; the ids the tests use."""
    ok(web, "setup", "--base-currency", "EUR", "--exchange-mode", "official", "--sync", "off", "--yes")
    checking = cli_json(web, "wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "5000")["id"]
    ok(web, "category", "add", "Food", "--kind", "expense")
    ok(web, "category", "add", "Groceries", "--parent", "Food")
    ok(web, "category", "add", "Dining", "--parent", "Food")
    ok(web, "category", "add", "Salary", "--kind", "income")
    for month, kind, amount, category, notes in [
        (M1, "income", "3000", "Salary", "Employer"), (M1, "expense", "120.40", "Groceries", "Market"),
        (M2, "expense", "45.10", "Dining", XSS), (M2, "expense", "80.00", "Groceries", "market"),
        (M3, "income", "3000", "Salary", "Employer"), (M3, "expense", "33.33", "Food", "Bakery"),
    ]:
        ok(web, "tx", "add", "--wallet", "Checking", "--amount", amount, "--kind", kind, "--category", category, "--notes", notes, "--date", f"{month}-10")
    house = cli_json(web, "asset", "add", "House " + XSS, "--value", "250000", "--date", f"{M1}-01")["id"]
    loan = cli_json(web, "liability", "add", "Loan", "--balance", "10000", "--date", f"{M1}-01")["id"]
    ok(web, "rates", "set", "USD", "EUR", "0.9", "--at", f"{TODAY.year - 1}-01-05")
    browser.get(web.sign_in_link())
    assert browser.current_url == web.base + "/", browser.current_url
    return {"checking": checking, "house": house, "loan": loan}


def test_the_category_report_shows_what_report_categories_gives(web, browser, ledger):
    for query, args in [(f"from={M1}&to={M3}&monthly=1", ["--from", M1, "--to", M3, "--monthly"]), ("", []), (f"months=2&kind=expense", ["--months", "2", "--kind", "expense"])]:
        report = cli_json(web, "report", "categories", *args)
        browser.get(f"{web.base}/reports/categories?{query}")
        settled(lambda: check_categories(browser, report, query))


def check_categories(browser, report, query):
    assert not errors(browser), errors(browser)
    rows = {(r.get_attribute("data-kind"), r.get_attribute("data-path")): r for r in browser.find_elements(By.CSS_SELECTOR, "tr[data-path]")}
    assert set(rows) == {(row["kind"], row["path"]) for row in report["categories"]}, query
    for row in report["categories"]:
        shown = rows[(row["kind"], row["path"])]
        assert shown.find_element(By.CSS_SELECTOR, "td.total").text == row["total"], (query, row)
        if "monthly" in query:
            for month, amount in zip(report["months"], row["months"]):
                assert shown.find_element(By.CSS_SELECTOR, f"td[data-month='{month}']").text == amount
    assert f"{report['months'][0]} to {report['months'][-1]}" in browser.find_element(By.ID, "report-range").text


def test_a_parent_rolls_up_its_children(web, ledger):
    food = next(r for r in cli_json(web, "report", "categories")["categories"] if r["path"] == "Food")
    assert food["total"] == "278.83", "the parent rolls up its children (120.40 + 45.10 + 80.00 + 33.33)"


def test_the_cash_flow_report_shows_what_report_cashflow_gives(web, browser, ledger):
    for query, args in [(f"from={M1}&to={M3}", ["--from", M1, "--to", M3]), ("months=3", ["--months", "3"])]:
        report = cli_json(web, "report", "cashflow", *args)
        browser.get(f"{web.base}/reports/cashflow?{query}")

        def check():
            for month in report["months"] + [report["total"]]:
                row = browser.find_element(By.CSS_SELECTOR, f"#cashflow tr[data-month='{month['month']}']")
                shown = [row.find_element(By.CSS_SELECTOR, f"td.{name}").text for name in ("income", "expenses", "net", "saved")]
                assert shown == [month["income"], month["expenses"], month["net"], month.get("savingsRate") or "–"], (query, month)
            assert len(browser.find_elements(By.CSS_SELECTOR, "figure.chart rect.bar")) == 2 * len(report["months"])
        settled(check)


def test_the_payee_report_shows_what_report_payees_gives_and_notes_render_inert(web, browser, ledger):
    for query, args in [(f"from={M1}-01&to={M3}-28", ["--from", f"{M1}-01", "--to", f"{M3}-28"]), ("kind=income&limit=1", ["--income", "--limit", "1"])]:
        report = cli_json(web, "report", "payees", *args)
        browser.get(f"{web.base}/reports/payees?{query}")

        def check():
            rows = browser.find_elements(By.CSS_SELECTOR, "#payees tbody tr")
            shown = [(r.find_element(By.CSS_SELECTOR, "th.payee").text, r.find_element(By.CSS_SELECTOR, "td.count").text, r.find_element(By.CSS_SELECTOR, "td.total").text) for r in rows]
            assert shown == [(p["payee"], str(p["count"]), p["total"]) for p in report["payees"]], query
        settled(check)
    browser.get(f"{web.base}/reports/payees")
    assert browser.execute_script("return window.__xss === undefined")
    assert "<script>window.__xss" not in browser.page_source
    assert "{{ 7*7 }}" in browser.find_element(By.ID, "payees").text


def test_a_refused_range_is_said_beside_its_field(web, browser, ledger):
    browser.get(f"{web.base}/reports/categories?from=2026-13")
    assert browser.find_elements(By.CSS_SELECTOR, "#from ~ .error"), errors(browser)
    assert browser.find_element(By.ID, "from").get_attribute("value") in ("", "2026-13")
    browser.get(f"{web.base}/reports/cashflow?months=abc")
    assert browser.find_elements(By.CSS_SELECTOR, "#months ~ .error"), errors(browser)
    browser.get(f"{web.base}/reports/payees?limit=5000")
    assert browser.find_elements(By.CSS_SELECTOR, "#limit ~ .error"), errors(browser)
    status, _, _ = web.request("GET", f"/reports/payees?limit=5000", cookie=web.session_cookie())
    assert status == 422


def test_the_net_worth_breakdown_at_a_day_is_what_networth_at_gives(web, browser, ledger):
    for day in (f"{M2}-15", None):
        report = cli_json(web, "networth", *(["--at", day] if day else []))
        browser.get(f"{web.base}/networth" + (f"?day={day}" if day else ""))

        def check():
            assert browser.find_element(By.ID, "networth-figure").text == f"{report['figures']['netWorth']} EUR"
            for name, value in report["figures"].items():
                if name != "netWorth":  # the figure above
                    assert browser.find_element(By.CSS_SELECTOR, f"dd[data-figure='{name}']").text == value, name
            for item in report["items"]:
                shown = browser.find_element(By.CSS_SELECTOR, f"li[data-item='{item['kind']}-{item['id']}']").text
                assert (f"{item['baseValue']} EUR" if item["baseValue"] else "not valued") in shown, item
        settled(check)
    assert browser.execute_script("return window.__xss === undefined"), "the asset's name renders inert"
    assert "{{ 7*7 }}" in browser.find_element(By.ID, "assets").text


def test_the_net_worth_chart_is_drawn_from_the_snapshots(web, browser, ledger):
    # ledgerly-alerts takes the ended months' snapshots from history after the back-dated writes.
    end = time.monotonic() + 15
    while time.monotonic() < end:
        snapshots = cli_json(web, "report", "networth")["snapshots"]
        if {s["month"] for s in snapshots} >= {M1, M2, M3}:
            break
        time.sleep(0.2)
    assert {s["month"] for s in snapshots} >= {M1, M2, M3}, snapshots
    browser.get(f"{web.base}/networth")
    table = {}

    def read():
        for row in browser.find_elements(By.CSS_SELECTOR, "figure.chart tbody tr"):
            cells = [text_of(c) for c in row.find_elements(By.CSS_SELECTOR, "th, td")]
            table[cells[0]] = cells[1:]
    settled(read)
    for snapshot in snapshots:
        figures = snapshot["figures"]
        assert table[snapshot["month"]] == [figures["netWorth"], figures["core"], figures["tangible"]], snapshot
    assert len(browser.find_elements(By.CSS_SELECTOR, "figure.chart polyline.line")) == 3


def test_a_valuation_added_in_the_browser_shows_in_asset_show(web, browser, ledger):
    house = ledger["house"]
    browser.get(f"{web.base}/networth")
    settled(lambda: browser.find_element(By.CSS_SELECTOR, f"a[href='/networth/assets/{house}']").click())
    browser.find_element(By.ID, "value").send_keys("-5")
    submit(browser, f"/networth/assets/{house}")
    assert browser.find_elements(By.CSS_SELECTOR, "#value ~ .error"), errors(browser)
    value = browser.find_element(By.ID, "value")
    assert value.get_attribute("value") == "-5", "what was typed is kept"
    value.clear()
    value.send_keys("262000")
    set_value(browser, "date", f"{M3}-20")
    browser.find_element(By.ID, "notes").send_keys("appraisal " + XSS)
    page = browser.page_source
    submit(browser, f"/networth/assets/{house}")
    assert browser.current_url == f"{web.base}/networth#asset-{house}", errors(browser)
    shown = cli_json(web, "asset", "show", str(house))
    newest = shown["valuations"][-1]
    assert (newest["date"], newest["notes"]) == (f"{M3}-20", "appraisal " + XSS) and newest["value"].startswith("262000")
    assert shown["value"] == newest["value"]
    settled(lambda: newest["value"] in browser.find_element(By.CSS_SELECTOR, f"li[data-asset='{house}']").text or pytest.fail("the new value is not shown"))
    assert browser.execute_script("return window.__xss === undefined")
    # The same form sent again (its idempotency key) adds nothing.
    csrf = re.search(r'name="_csrf" value="([0-9a-f]{64})"', page).group(1)
    key = re.search(r'name="_key" value="([0-9a-f-]{36})"', page).group(1)
    cookie = "ledgerly_session=" + browser.get_cookie("ledgerly_session")["value"]
    form = {"_csrf": csrf, "_key": key, "value": "262000", "date": f"{M3}-20", "notes": "appraisal " + XSS}
    status, headers, _ = web.request("POST", f"/networth/assets/{house}", form, cookie=cookie)
    assert status == 303, headers
    assert len(cli_json(web, "asset", "show", str(house))["valuations"]) == len(shown["valuations"])


def test_a_payment_made_in_the_browser_shows_in_liability_show(web, browser, ledger):
    loan = ledger["loan"]
    browser.get(f"{web.base}/networth")
    settled(lambda: browser.find_element(By.CSS_SELECTOR, f"a[href='/networth/liabilities/{loan}']").click())
    Select(browser.find_element(By.ID, "wallet")).select_by_value(str(ledger["checking"]))
    browser.find_element(By.ID, "amount").send_keys("20000")
    submit(browser, f"/networth/liabilities/{loan}")
    assert browser.find_elements(By.CSS_SELECTOR, "#amount ~ .error"), errors(browser)
    amount = browser.find_element(By.ID, "amount")
    amount.clear()
    amount.send_keys("250")
    browser.find_element(By.ID, "notes").send_keys("December")
    submit(browser, f"/networth/liabilities/{loan}")
    assert browser.current_url == f"{web.base}/networth#liability-{loan}", errors(browser)
    shown = cli_json(web, "liability", "show", str(loan))
    payment = shown["history"][-1]
    assert payment["kind"] == "payment" and payment["amount"] == "250.00" and payment["walletId"] == ledger["checking"] and payment["notes"] == "December"
    assert shown["balance"] == "9750.00"
    settled(lambda: "9750.00 EUR" in browser.find_element(By.CSS_SELECTOR, f"li[data-liability='{loan}']").text or pytest.fail("the new balance is not shown"))


def test_a_cli_write_shows_on_the_net_worth_page_within_a_second(web, browser, ledger):
    browser.get(f"{web.base}/networth")
    end = time.monotonic() + 5
    while browser.find_element(By.ID, "live-state").text != "live" and time.monotonic() < end:
        time.sleep(0.05)
    read = "var e = document.getElementById('networth-figure'); return e ? e.textContent : null;"
    before = browser.execute_script(read)
    ok(web, "asset", "revalue", str(ledger["house"]), "263000")
    written = time.monotonic()
    shown = before
    while time.monotonic() - written < 1.0 and shown == before:
        time.sleep(0.02)
        shown = browser.execute_script(read)
    assert shown == f"{cli_json(web, 'networth')['figures']['netWorth']} EUR" != before


def test_the_dashboard_warns_of_stale_rates_and_failing_providers(web, browser, ledger):
    stale = [r for r in cli_json(web, "rates", "list")["rates"] if r.get("stale")]
    assert [(r["base"], r["quote"]) for r in stale] == [("USD", "EUR")]
    end = time.monotonic() + 10
    while time.monotonic() < end:
        failing = [p for p in cli_json(web, "status")["providers"] if p.get("lastError")]
        if failing:
            break
        time.sleep(0.2)
    assert [p["name"] for p in failing] == ["unreachable"]
    browser.get(web.base + "/")
    warnings = browser.find_element(By.ID, "rate-warnings")
    assert stale[0]["rate"] in warnings.find_element(By.CSS_SELECTOR, "li[data-stale='USD/EUR']").text
    assert failing[0]["lastError"] in warnings.find_element(By.CSS_SELECTOR, "li[data-provider='unreachable']").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "figure.chart polyline.line")) == 3, "net worth, core and tangible"


def test_the_navigation_fits_a_phone_and_lists_every_page(web, browser, ledger):
    browser.set_window_size(360, 800)
    browser.set_window_size(360 + (360 - browser.execute_script("return window.innerWidth")), 800)
    try:
        browser.get(web.base + "/reports/cashflow")
        header = [a for a in browser.find_elements(By.CSS_SELECTOR, "header nav a") if a.is_displayed()]
        assert [a.text for a in header] == ["Dashboard", "Wallets", "Add", "More"]
        for link in header:
            assert link.size["height"] >= 44 and link.location["x"] + link.size["width"] <= 360, link.text
        header[-1].click()
        assert browser.current_url.endswith("#all-pages")
        listed = {a.get_attribute("href").removeprefix(web.base) for a in browser.find_elements(By.CSS_SELECTOR, "#all-pages a")}
        assert listed >= {"/", "/wallets", "/transactions/new", "/reports/categories", "/reports/cashflow", "/reports/payees", "/networth", "/budgets", "/rates", "/convert", "/setup"}
        for link in browser.find_elements(By.CSS_SELECTOR, "#all-pages a"):
            assert link.size["height"] >= 44, link.text
        assert browser.find_element(By.CSS_SELECTOR, "#all-pages a[aria-current=page]").text == "Cash flow"
    finally:
        browser.set_window_size(1280, 800)
    assert browser.find_element(By.CSS_SELECTOR, "header nav a[aria-current=page]").text == "Reports", "the reports' header link stands for each report"


def test_every_page_fits_a_phone_and_a_desktop(web, browser, artifacts, ledger):
    pages = {"report-categories": f"/reports/categories?from={M1}&to={M3}&monthly=1&by_currency=1", "report-cashflow": "/reports/cashflow",
             "report-payees": "/reports/payees", "networth": f"/networth?day={M2}-15", "networth-asset": f"/networth/assets/{ledger['house']}",
             "networth-liability": f"/networth/liabilities/{ledger['loan']}", "dashboard-warnings": "/"}
    overflowing = fit_phone_and_desktop(web, browser, artifacts, pages)
    assert not overflowing, f"wider than 360 px: {overflowing}"
