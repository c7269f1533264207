"""ledgerly-web's plan pages in a real browser (issue 47): /goals, /recurring, /investments and
/alerts against the real services (ledgerly-alerts among them) on this module's own home.

The tests run in file order and build on each other: setup and data by CLI writes, then each
page is checked against the CLI's `--json` for the same question; a budget crossing 80 % (a CLI
write) must reach the open alerts page and the dashboard within a few seconds; every page goes
through the 360/1280 fit check.
"""

from __future__ import annotations

import datetime
import json
import re
import time

from web_support import WEB_REQUIREMENTS, XSS, By, Select, WebDriverWait, artifacts, browser, expected_conditions, fit_phone_and_desktop, submit, web  # noqa: F401

pytestmark = WEB_REQUIREMENTS

TODAY = datetime.date.today()


def cli_json(web, *args: str):
    result = web.cli(*args, "--json")
    assert result.returncode == 0, f"{args}: {result.stderr}"
    return json.loads(result.stdout)


def ok(web, *args: str) -> None:
    result = web.cli(*args)
    assert result.returncode == 0, f"{args}: {result.stderr}"


def wallets(web) -> dict[str, dict]:
    listing = cli_json(web, "wallet", "list")
    return {w["name"]: w for w in (listing["wallets"] if isinstance(listing, dict) else listing)}


def add_months(day: datetime.date, months: int) -> datetime.date:
    """The same day `months` later, or that month's last day (as the store's calendar counts)."""
    total = day.year * 12 + day.month - 1 + months
    year, month = divmod(total, 12)
    month += 1
    last = (datetime.date(year + month // 12, month % 12 + 1, 1) - datetime.timedelta(days=1)).day
    return datetime.date(year, month, min(day.day, last))


def text(browser, css: str) -> str:
    """The rendered text of the first element `css` matches, read in one script call: a live page
    swaps its content when any change arrives (an alert the alerts service raises, say), which
    would leave a held WebElement stale."""
    value = browser.execute_script("var e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css)
    assert value is not None, f"nothing matches {css}"
    return value


def errors(browser) -> list[str]:
    return [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]


def wait_live(browser) -> None:
    """Until the page's live script has its /events stream open."""
    end = time.monotonic() + 5
    while browser.find_element(By.ID, "live-state").text != "live" and time.monotonic() < end:
        time.sleep(0.05)


def test_setup_and_sign_in(web, browser):
    ok(web, "setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes")
    ok(web, "wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "5000")
    ok(web, "wallet", "add", "Savings", "--currency", "EUR")
    browser.get(web.sign_in_link())
    assert browser.current_url == web.base + "/"
    # Before there is anything to show, each page says so (and how to add some).
    for path in ("/goals", "/recurring", "/investments", "/alerts"):
        browser.get(web.base + path)
        assert browser.find_elements(By.CSS_SELECTOR, "main .empty"), f"{path}: {text(browser, 'main')}"


def test_a_contribution_from_the_browser_shows_in_goal_list(web, browser):
    deadline = (TODAY + datetime.timedelta(days=400)).isoformat()
    goal = cli_json(web, "goal", "add", "Holiday " + XSS, "--target", "2400", "--deadline", deadline, "--wallet", "Savings")
    browser.get(f"{web.base}/goals?goal={goal['id']}")
    assert browser.execute_script("return window.__xss === undefined")
    assert "<script>window.__xss" not in browser.page_source
    assert "{{ 7*7 }}" in text(browser, "#goals")
    # A refusal goes beside the amount, with what was typed kept.
    browser.find_element(By.ID, "amount").send_keys("-5")
    submit(browser, "/goals")
    assert browser.find_elements(By.CSS_SELECTOR, "#amount ~ .error"), errors(browser)
    assert browser.find_element(By.ID, "amount").get_attribute("value") == "-5"
    amount = browser.find_element(By.ID, "amount")
    amount.clear()
    amount.send_keys("150")
    Select(browser.find_element(By.ID, "from")).select_by_value(str(wallets(web)["Checking"]["id"]))
    submit(browser, "/goals")
    assert browser.current_url.startswith(web.base + "/goals"), errors(browser)
    listed = next(g for g in cli_json(web, "goal", "list")["goals"] if g["id"] == goal["id"])
    assert listed["current"] == "150.00"
    item = text(browser, f"li[data-goal='{goal['id']}']")
    assert f"{listed['current']} of {listed['target']} {listed['currency']} · {listed['percent']} %" in item
    pace = "reached" if listed["status"] == "achieved" else "behind pace" if listed["behindPace"] else "on track"
    assert pace in item and listed["monthlyNeeded"] in item, item
    # The money moved into the goal's wallet, as `ledgerly goal fund --from` moves it.
    assert wallets(web)["Savings"]["balance"] == "150.00"
    # The same form sent twice (one idempotency key) puts the money in once.
    browser.get(f"{web.base}/goals?goal={goal['id']}")
    page = browser.page_source
    form = {"_csrf": re.search(r'name="_csrf" value="([0-9a-f]{64})"', page).group(1),
            "_key": re.search(r'name="_key" value="([0-9a-f-]{36})"', page).group(1), "goal": str(goal["id"]), "amount": "10", "from": "", "date": ""}
    cookie = "ledgerly_session=" + browser.get_cookie("ledgerly_session")["value"]
    for _ in range(2):
        status, _, body = web.request("POST", "/goals", form, cookie=cookie)
        assert status == 303, body
    assert cli_json(web, "goal", "show", str(goal["id"]))["current"] == "160.00"


def test_the_goals_update_live_and_what_is_typed_stays(web, browser):
    """/goals is live but holds a form: a CLI write refreshes the goals within a second, and the
    amount being typed is left as it is (only the part marked data-live-part is swapped, D580)."""
    goal = next(g for g in cli_json(web, "goal", "list")["goals"] if g["name"].startswith("Holiday"))
    browser.get(f"{web.base}/goals?goal={goal['id']}")
    wait_live(browser)
    browser.find_element(By.ID, "amount").send_keys("12.34")
    ok(web, "goal", "fund", str(goal["id"]), "40")
    written = time.monotonic()
    read = f"var e = document.querySelector(\"li[data-goal='{goal['id']}']\"); return e ? e.textContent : null;"
    shown = browser.execute_script(read)
    while time.monotonic() - written < 1.0 and "200.00 of" not in (shown or ""):
        time.sleep(0.02)
        shown = browser.execute_script(read)
    assert "200.00 of" in (shown or ""), f"the goal did not update within a second: {shown!r}"
    assert browser.find_element(By.ID, "amount").get_attribute("value") == "12.34", "what was typed stays"


def test_pausing_in_the_browser_shows_in_recurring_list(web, browser):
    start = (TODAY + datetime.timedelta(days=40)).isoformat()
    rule = cli_json(web, "recurring", "add", "Rent", "--wallet", "Checking", "--amount", "1200", "--frequency", "monthly", "--start", start)
    browser.get(web.base + "/recurring")
    assert text(browser, f"li[data-recurring='{rule['id']}'] .next-run") == rule["nextRun"]
    item = text(browser, f"li[data-recurring='{rule['id']}']")
    then = [add_months(datetime.date.fromisoformat(start), n).isoformat() for n in (1, 2)]
    assert f"then {then[0]}, {then[1]}" in item, item
    submit(browser, f"/recurring/{rule['id']}/pause")
    assert browser.current_url.startswith(web.base + "/recurring"), errors(browser)
    listed = next(r for r in cli_json(web, "recurring", "list")["recurring"] if r["id"] == rule["id"])
    assert listed["paused"] is True
    item = text(browser, f"li[data-recurring='{rule['id']}']")
    assert "paused" in item and listed["nextRun"] in item
    submit(browser, f"/recurring/{rule['id']}/pause")
    listed = next(r for r in cli_json(web, "recurring", "list")["recurring"] if r["id"] == rule["id"])
    assert listed["paused"] is False
    assert "Pause" in text(browser, f"li[data-recurring='{rule['id']}'] button")


def test_investments_show_what_holdings_gains_and_allocation_say(web, browser):
    ok(web, "rates", "set", "USD", "EUR", "0.93")
    ok(web, "invest", "account", "add", "Broker", "--base-currency", "EUR")
    ok(web, "invest", "asset", "add", "AAPL", "--type", "stock", "--currency", "USD", "--group", "core")
    ok(web, "invest", "asset", "add", "BND", "--type", "bond", "--currency", "EUR", "--group", "safe")
    last_year = TODAY.year - 1
    ok(web, "invest", "buy", "AAPL", "--account", "Broker", "--quantity", "10", "--price", "100", "--fee", "1", "--rate", "0.90", "--date", f"{last_year}-01-02")
    ok(web, "invest", "buy", "AAPL", "--account", "Broker", "--quantity", "5", "--price", "110", "--rate", "0.91", "--date", f"{last_year}-02-03")
    ok(web, "invest", "sell", "AAPL", "--account", "Broker", "--quantity", "4", "--price", "120", "--fee", "1", "--rate", "0.92", "--date", f"{last_year}-06-01")
    ok(web, "invest", "sell", "AAPL", "--account", "Broker", "--quantity", "3", "--price", "125", "--rate", "0.94", "--date", f"{TODAY.year}-01-05")
    ok(web, "invest", "buy", "BND", "--account", "Broker", "--quantity", "20", "--price", "50", "--date", f"{last_year}-03-01")
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    for hours, price in ((3, "128.50"), (2, "131.25"), (1, "130.10")):
        ok(web, "invest", "prices", "set", "AAPL", price, "--at", (now - datetime.timedelta(hours=hours)).isoformat().replace("+00:00", "Z"))
    ok(web, "invest", "prices", "set", "BND", "51.20")
    ok(web, "invest", "allocation", "set", "core", "60")
    ok(web, "invest", "allocation", "set", "safe", "40")

    browser.get(web.base + "/investments")
    holdings = cli_json(web, "invest", "holdings", "--lots")
    assert len(holdings["holdings"]) == 2
    for holding in holdings["holdings"]:
        selector = f"li[data-holding='{holding['accountId']}:{holding['assetId']}']"
        shown = text(browser, selector)
        assert f"{holding['quantity']} units" in shown and f"cost {holding['costBase']} {holding['baseCurrency']}" in shown, shown
        assert f"value {holding['valueBase']} {holding['baseCurrency']}" in shown
        assert f"price {holding['price']['price']} {holding['price']['currency']}" in shown and holding["price"]["asOf"] in shown
        gain = holding["unrealised"]
        assert f"unrealised gain {gain['total']} (price effect {gain['priceEffect']}, currency effect {gain['currencyEffect']})" in shown, shown
        lots = "return Array.from(document.querySelectorAll(arguments[0] + ' li[data-lot]')).map(function (e) { return [e.getAttribute('data-lot'), e.textContent]; });"
        shown_lots = dict(browser.execute_script(lots, selector))
        assert set(shown_lots) == {str(lot["id"]) for lot in holding["lots"]}
        for lot in holding["lots"]:
            assert f"{lot['quantity']} costing {lot['cost']} {holding['currency']} ({lot['costBase']} {holding['baseCurrency']})" in shown_lots[str(lot["id"])]
    aapl = next(h for h in holdings["holdings"] if h["symbol"] == "AAPL")
    points = browser.execute_script("return document.querySelector(arguments[0]).getAttribute('points');", f"li[data-holding='{aapl['accountId']}:{aapl['assetId']}'] svg.spark polyline")
    assert len(points.split()) == 3, points
    for total in holdings["totals"]:
        shown = text(browser, f"li[data-total='{total['currency']}']")
        assert f"value {total['valueBase']}, cost {total['costBase']}, gain {total['gain']} (price effect {total['priceEffect']}, currency effect {total['currencyEffect']})" in shown, shown

    for year in (TODAY.year, last_year):
        gains = cli_json(web, "invest", "gains", "--year", str(year))
        assert gains["saleCount"] == 1
        for total in gains["totals"]:
            shown = text(browser, f"li[data-year='{year}'] li[data-currency='{total['currency']}']")
            assert f"gain {total['gain']} {total['currency']}: price effect {total['priceEffect']}, currency effect {total['currencyEffect']}" in shown, shown
            assert f"proceeds {total['proceedsBase']}, cost {total['costBase']}, income {total['income']}" in shown
    everything = cli_json(web, "invest", "gains")
    assert everything["totals"][0]["gain"] in text(browser, "li[data-year='all']")

    allocation = cli_json(web, "invest", "allocation", "show")
    assert text(browser, "#allocation-total") == f"{allocation['total']} {allocation['currency']}"
    for line in allocation["lines"]:
        shown = text(browser, f"li[data-allocation='{line['key']}']")
        assert f"{line['value']} {allocation['currency']}" in shown and f"actual {line['actual']} %" in shown, shown
        assert f"target {line['target']} %, drift {line['drift']} points" in shown
        assert ("drifting" in shown) == line["drifting"]
    browser.get(web.base + "/investments?by=type")
    by_type = cli_json(web, "invest", "allocation", "show", "--by", "type")
    for line in by_type["lines"]:
        assert f"actual {line['actual']} %" in text(browser, f"li[data-allocation='{line['key']}']")


def test_a_budget_crossing_80_percent_shows_on_the_alerts_page_and_the_dashboard(web, browser):
    # A category name cannot hold "/": the corpus without it.
    category = cli_json(web, "category", "add", "Food " + XSS.replace("/", ""), "--kind", "expense")
    ok(web, "budget", "set", str(category["id"]), "100")
    browser.get(web.base + "/alerts")
    wait_live(browser)
    before = {a["id"] for a in cli_json(web, "alerts", "list")["alerts"]}
    ok(web, "tx", "add", "--wallet", "Checking", "--amount", "85", "--category", str(category["id"]), "--notes", "a big shop")
    written = time.monotonic()
    read = "return Array.from(document.querySelectorAll('li[data-alert]')).map(function (e) { return [e.getAttribute('data-alert'), e.textContent]; });"
    crossing = None
    while time.monotonic() - written < 5 and crossing is None:
        time.sleep(0.05)
        crossing = next((row for row in browser.execute_script(read) if "80 %" in row[1] and int(row[0]) not in before), None)
    assert crossing, f"the 80 % alert did not reach the open alerts page within 5 s: {browser.execute_script(read)}"
    alerts = cli_json(web, "alerts", "list")["alerts"]
    raised = next(a for a in alerts if str(a["id"]) == crossing[0])
    assert raised["kind"] == "budget.threshold" and raised["threshold"] == 80
    assert raised["message"] in crossing[1]
    # Newest first, each one the CLI lists (read after the page: other alerts may be raised meanwhile).
    shown = [int(row[0]) for row in browser.execute_script(read)]
    assert shown == sorted(shown, reverse=True) and set(shown) <= {a["id"] for a in cli_json(web, "alerts", "list")["alerts"]}
    assert browser.execute_script("return window.__xss === undefined")
    assert "<script>window.__xss" not in browser.page_source and "{{ 7*7 }}" in text(browser, "#alerts")
    browser.get(web.base + "/")
    assert raised["message"] in text(browser, "section[aria-labelledby='al']")
    assert browser.execute_script("return window.__xss === undefined")


def test_the_plan_pages_fit_a_phone_and_a_desktop(web, browser, artifacts):
    pages = {"goals": "/goals", "recurring": "/recurring", "investments": "/investments", "investments-by-type": "/investments?by=type", "alerts": "/alerts"}
    overflowing = fit_phone_and_desktop(web, browser, artifacts, pages)
    assert not overflowing, f"wider than 360 px: {overflowing}"
