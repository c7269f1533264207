"""ledgerly-web in a real browser (issue 47): headless Chromium driven by Selenium against the real
services on a temporary home.

One module-scoped set of services and one browser serve every test (start-up is most of the
time); the tests run in file order and build on each other: setup, then a wallet, then a
transaction. Screenshots of every page at 360x800 and 1280x800 go to $LEDGERLY_ARTIFACTS, else a
folder under pytest's temporary directory; a page wider than 360 px at 360 fails.

Needs chromium, chromium-driver (Debian) and selenium (PyPI): deploy/install-deps.sh
--python-test-deps installs them. Without them the module is skipped with the reason.
"""

from __future__ import annotations

import http.client
import json
import re
import time
import urllib.parse

from web_support import WEB_REQUIREMENTS, XSS, By, Select, WebDriverWait, artifacts, browser, expected_conditions, fit_phone_and_desktop, submit, web  # noqa: F401

pytestmark = WEB_REQUIREMENTS


def test_no_page_without_a_session(web):
    for path in ("/", "/wallets", "/setup", "/transactions/new", "/events"):
        status, headers, text = web.request("GET", path)
        assert status == 401, path
        assert "ledgerly web open" in text
        assert headers["content-security-policy"].startswith("default-src 'self'")
        assert headers["x-frame-options"] == "DENY"
        assert headers["cache-control"] == "no-store"
    status, _, _ = web.request("POST", "/transactions/new", {"amount": "1"})
    assert status == 401


def test_a_sign_in_link_works_once(web):
    link = urllib.parse.urlsplit(web.sign_in_link())
    status, headers, _ = web.request("GET", f"{link.path}?{link.query}")
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    again, _, text = web.request("GET", f"{link.path}?{link.query}")
    assert again == 401 and "used already" in text
    forged, _, _ = web.request("GET", "/signin?token=" + "0" * 64)
    assert forged == 401
    # The ticket file is gone: nothing is left to reuse.
    assert not list((web.home / "state" / "web-signin").iterdir())


def test_setup_in_the_browser(web, browser):
    browser.get(web.sign_in_link())
    assert browser.current_url.endswith("/setup"), "before setup every page leads to /setup"
    field = browser.find_element(By.ID, "base_currency")
    field.clear()
    field.send_keys("EUR")
    browser.find_element(By.CSS_SELECTOR, "input[name=exchange_mode][value=manual]").click()
    submit(browser, "/setup")
    assert browser.current_url == web.base + "/", browser.find_element(By.TAG_NAME, "main").text
    assert browser.find_element(By.TAG_NAME, "h1").text == "Dashboard"
    settings = json.loads(web.cli("settings", "show", "--json").stdout)
    assert settings["baseCurrency"] == "EUR" and settings["exchangeMode"] == "manual"


def test_a_post_without_the_csrf_token_is_refused(web):
    cookie = web.session_cookie()
    status, headers, text = web.request("POST", "/transactions/new", {"_key": "6f1c0e4e-9a55-4c59-8d7d-0d7d1c1b1a11", "wallet": "1", "amount": "5", "date": "2026-01-02"}, cookie=cookie)
    assert status == 403 and "nothing was saved" in text
    assert headers["x-frame-options"] == "DENY"
    status, _, _ = web.request("POST", "/transactions/new", {"_csrf": "0" * 64, "wallet": "1", "amount": "5"}, cookie=cookie)
    assert status == 403


def test_an_oversized_body_is_refused(web):
    cookie = web.session_cookie()
    status, headers, text = web.request("POST", "/transactions/new", {"notes": "x" * 70_000}, cookie=cookie)
    assert status == 413 and "nothing was saved" in text
    assert headers["content-security-policy"].startswith("default-src 'self'")


def test_a_transaction_from_the_browser_and_the_figures_agree(web, browser):
    assert web.cli("wallet", "add", "Cash " + XSS, "--currency", "EUR", "--starting-balance", "100").returncode == 0
    wallets = json.loads(web.cli("wallet", "list", "--json").stdout)
    wallet_id = wallets[0]["id"] if isinstance(wallets, list) else wallets["wallets"][0]["id"]
    browser.get(web.base + "/transactions/new")
    Select(browser.find_element(By.ID, "wallet")).select_by_value(str(wallet_id))
    browser.find_element(By.ID, "amount").send_keys("12.50")
    browser.find_element(By.ID, "notes").send_keys(XSS)
    browser.find_element(By.ID, "tags").send_keys("food, <b>bold</b>")
    submit(browser, "/transactions/new")
    assert browser.current_url == f"{web.base}/wallets/{wallet_id}", [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]
    balance = browser.find_element(By.ID, "balance").text
    assert balance == "87.50 EUR"
    report = json.loads(web.cli("report", "balance", "--json").stdout)
    assert report["total"] == "87.50"
    browser.get(web.base + "/wallets")
    assert browser.find_element(By.ID, "total").text == "87.50 EUR"
    browser.get(web.base + "/")
    assert browser.find_element(By.ID, "net-worth").text == "87.50 EUR"


def test_an_error_is_shown_beside_its_field_and_nothing_is_kept_twice(web, browser):
    browser.get(web.base + "/transactions/new")
    Select(browser.find_element(By.ID, "wallet")).select_by_index(1)
    browser.find_element(By.ID, "amount").send_keys("-3")
    submit(browser, "/transactions/new")
    assert browser.current_url.endswith("/transactions/new"), browser.current_url
    errors = browser.find_elements(By.CSS_SELECTOR, "#amount ~ .error")
    assert errors, [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]
    error = errors[0]
    assert error.text, "the store's refusal is shown beside the amount"
    assert browser.find_element(By.ID, "amount").get_attribute("value") == "-3"
    # A double submit: the same form (same idempotency key) sent twice records one transaction.
    page = browser.page_source
    csrf = re.search(r'name="_csrf" value="([0-9a-f]{64})"', page).group(1)
    key = re.search(r'name="_key" value="([0-9a-f-]{36})"', page).group(1)
    cookie = "ledgerly_session=" + browser.get_cookie("ledgerly_session")["value"]
    wallet_id = Select(browser.find_element(By.ID, "wallet")).first_selected_option.get_attribute("value")
    form = {"_csrf": csrf, "_key": key, "kind": "expense", "wallet": wallet_id, "amount": "2.50", "date": "2026-01-05", "notes": "twice"}
    before = json.loads(web.cli("tx", "list", "--json").stdout)
    for _ in range(2):
        status, headers, _ = web.request("POST", "/transactions/new", form, cookie=cookie)
        assert status == 303, headers
    after = json.loads(web.cli("tx", "list", "--json").stdout)
    count = lambda listing: len(listing["transactions"] if isinstance(listing, dict) else listing)
    assert count(after) == count(before) + 1


def test_what_the_user_typed_renders_inert(web, browser):
    for path in ("/wallets", "/", "/transactions/new"):
        browser.get(web.base + path)
        assert browser.execute_script("return window.__xss === undefined")
    wallets = json.loads(web.cli("wallet", "list", "--json").stdout)
    wallet_id = wallets[0]["id"] if isinstance(wallets, list) else wallets["wallets"][0]["id"]
    browser.get(f"{web.base}/wallets/{wallet_id}")
    assert browser.execute_script("return window.__xss === undefined")
    source = browser.page_source
    assert "<script>window.__xss" not in source
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in source
    assert XSS.split("<img")[0].replace("<script>", "") in browser.find_element(By.TAG_NAME, "h1").text
    assert "{{ 7*7 }}" in browser.find_element(By.ID, "transactions").text
    assert "49" not in browser.find_element(By.ID, "transactions").text


def test_a_cli_write_shows_in_an_open_page_within_a_second(web, browser):
    wallets = json.loads(web.cli("wallet", "list", "--json").stdout)
    wallet_id = wallets[0]["id"] if isinstance(wallets, list) else wallets["wallets"][0]["id"]
    browser.get(f"{web.base}/wallets/{wallet_id}")
    before = browser.find_element(By.ID, "balance").text
    # The live script is connected before the write is made.
    end = time.monotonic() + 5
    while browser.find_element(By.ID, "live-state").text != "live" and time.monotonic() < end:
        time.sleep(0.05)
    assert web.cli("tx", "add", "--wallet", str(wallet_id), "--amount", "1.00", "--kind", "income", "--notes", "from the CLI").returncode == 0
    written = time.monotonic()
    # Read in one script call: the live script swaps the element out while a WebElement is held.
    read = "var e = document.getElementById('balance'); return e ? e.textContent : null;"
    shown = before
    while time.monotonic() - written < 1.0 and shown == before:
        time.sleep(0.02)
        shown = browser.execute_script(read)
    assert shown not in (before, None), f"the page did not update within a second ({before!r} still shown)"
    assert shown == "86.00 EUR"  # 100 - 12.50 - 2.50 + 1.00


def test_an_edit_cannot_silently_keep_a_category_it_was_asked_to_drop(web):
    """tx.update keeps a category when none is sent: the edit form offers no "No category" for a
    transaction that has one, and a form that sends none anyway is refused (422), not saved as if
    the category had been removed."""
    created = web.cli("category", "add", "Groceries", "--kind", "expense", "--json")
    assert created.returncode == 0, created.stderr
    category_id = json.loads(created.stdout)["id"]
    wallets = json.loads(web.cli("wallet", "list", "--json").stdout)
    wallet_id = wallets[0]["id"] if isinstance(wallets, list) else wallets["wallets"][0]["id"]
    added = web.cli("tx", "add", "--wallet", str(wallet_id), "--amount", "3.00", "--category", str(category_id), "--notes", "categorised", "--json")
    assert added.returncode == 0, added.stderr
    tx_id = json.loads(added.stdout)["id"]
    cookie = web.session_cookie()
    status, _, page = web.request("GET", f"/transactions/{tx_id}", cookie=cookie)
    assert status == 200
    assert "No category" not in page
    csrf = re.search(r'name="_csrf" value="([0-9a-f]{64})"', page).group(1)
    key = re.search(r'name="_key" value="([0-9a-f-]{36})"', page).group(1)
    form = {"_csrf": csrf, "_key": key, "kind": "expense", "wallet": str(wallet_id), "amount": "3.00", "date": "2026-01-06", "category": "",
            "tags": "", "notes": "categorised"}
    status, _, text = web.request("POST", f"/transactions/{tx_id}", form, cookie=cookie)
    assert status == 422, text
    assert "not removed" in text
    shown = json.loads(web.cli("tx", "show", str(tx_id), "--json").stdout)
    assert shown["categoryId"] == category_id and shown["date"] != "2026-01-06", "nothing was saved"


def set_value(browser, element_id: str, value: str) -> None:
    """Sets a field's value directly (a date input's typing order depends on the browser's locale)."""
    browser.execute_script("document.getElementById(arguments[0]).value = arguments[1]", element_id, value)


def test_a_rate_set_in_the_browser_shows_in_rates_list_and_a_bad_one_is_refused_beside_its_field(web, browser):
    browser.get(web.base + "/rates")
    browser.find_element(By.ID, "base").send_keys("USD")
    browser.find_element(By.ID, "quote").send_keys("EUR")
    browser.find_element(By.ID, "rate").send_keys("-1")
    submit(browser, "/rates")
    errors = browser.find_elements(By.CSS_SELECTOR, "#rate ~ .error")
    assert errors and errors[0].text, [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]
    assert browser.find_element(By.ID, "base").get_attribute("value") == "USD", "what was typed is kept"
    rate = browser.find_element(By.ID, "rate")
    rate.clear()
    rate.send_keys("0.9215")
    set_value(browser, "day", "2026-01-05")
    submit(browser, "/rates")
    assert "/rates?profile=" in browser.current_url, [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]
    listing = json.loads(web.cli("rates", "list", "--json").stdout)
    usd = [r for r in listing["rates"] if (r["base"], r["quote"]) == ("USD", "EUR")]
    assert usd and usd[0]["rate"] == "0.9215" and usd[0]["asOf"].startswith("2026-01-05"), listing
    row = browser.find_element(By.CSS_SELECTOR, "li[data-pair='USD/EUR']").text
    assert usd[0]["rate"] in row and usd[0]["inverseRate"] in row and usd[0]["asOf"] in row
    assert ("stale" in row) == bool(usd[0].get("stale"))


def test_a_conversion_link_shows_what_ledgerly_convert_shows(web, browser):
    history = lambda: json.loads(web.cli("convert", "--history", "--json").stdout)["conversions"]
    before = len(history())
    browser.get(web.base + "/convert?amount=100&from=USD&to=EUR&day=2026-01-10")
    browser.refresh()
    assert len(history()) == before, "a conversion link is a preview: opening it keeps nothing in the history (D519)"
    cli = json.loads(web.cli("convert", "100", "USD", "--to", "EUR", "--at", "2026-01-10", "--json").stdout)
    assert browser.find_element(By.ID, "convert-to").text == f"{cli['result']} EUR"
    assert cli["result"].startswith("92.15")
    shown = browser.find_element(By.ID, "convert-rate").text
    assert cli["snapshot"]["rate"] in shown and cli["snapshot"]["asOf"] in shown and cli["snapshot"]["source"] in shown
    assert browser.find_element(By.ID, "amount").get_attribute("value") == "100", "the form keeps the conversion"
    browser.get(web.base + "/convert?amount=abc&from=USD&to=EUR")
    assert browser.find_elements(By.CSS_SELECTOR, "#amount ~ .error"), [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]


def test_a_budget_set_in_the_browser_shows_in_budget_status(web, browser):
    categories = json.loads(web.cli("category", "list", "--json").stdout)
    categories = categories["categories"] if isinstance(categories, dict) else categories
    groceries = next(c for c in categories if c["name"] == "Groceries")
    browser.get(web.base + "/budgets")
    Select(browser.find_element(By.ID, "category")).select_by_value(str(groceries["id"]))
    browser.find_element(By.ID, "amount").send_keys("200")
    browser.find_element(By.NAME, "carry_over").click()
    submit(browser, "/budgets")
    assert browser.current_url == web.base + "/budgets", [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]
    status = json.loads(web.cli("budget", "status", "--json").stdout)
    month = next(b for b in status["budgets"] if b["budget"]["categoryId"] == groceries["id"])
    assert month["budget"]["carryOver"] is True and month["limit"].startswith("200")
    item = browser.find_element(By.CSS_SELECTOR, f"li[data-budget='{month['budget']['id']}']")
    assert f"{month['spent']} of {month['available']}" in item.text
    assert len(item.find_elements(By.CSS_SELECTOR, "svg.budget line.mark")) == 3


def test_a_budget_category_full_of_markup_renders_inert(web, browser):
    # A category name cannot hold "/" (it separates levels): the corpus without it.
    created = web.cli("category", "add", "Fun " + XSS.replace("/", ""), "--kind", "expense", "--json")
    assert created.returncode == 0, created.stderr
    assert web.cli("budget", "set", str(json.loads(created.stdout)["id"]), "50").returncode == 0
    browser.get(web.base + "/budgets")
    assert browser.execute_script("return window.__xss === undefined")
    source = browser.page_source
    assert "<script>window.__xss" not in source and "&lt;script&gt;window.__xss=1&lt;script&gt;" in source
    assert "{{ 7*7 }}" in browser.find_element(By.TAG_NAME, "main").text


def test_every_page_fits_a_phone_and_a_desktop(web, browser, artifacts):
    wallets = json.loads(web.cli("wallet", "list", "--json").stdout)
    wallet_id = wallets[0]["id"] if isinstance(wallets, list) else wallets["wallets"][0]["id"]
    listing = json.loads(web.cli("tx", "list", "--json").stdout)
    tx_id = (listing["transactions"] if isinstance(listing, dict) else listing)[0]["id"]
    pages = {"dashboard": "/", "wallets": "/wallets", "wallet": f"/wallets/{wallet_id}", "transaction-new": "/transactions/new",
             "transaction-edit": f"/transactions/{tx_id}", "setup": "/setup", "not-found": "/nowhere",
             "budgets": "/budgets", "rates": "/rates", "convert": "/convert?amount=100&from=USD&to=EUR&day=2026-01-10"}
    overflowing = fit_phone_and_desktop(web, browser, artifacts, pages)
    # Dark mode, as a phone set to it asks (prefers-color-scheme).
    browser.set_window_size(360, 800)
    browser.set_window_size(360 + (360 - browser.execute_script("return window.innerWidth")), 800)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    for name in ("dashboard", "transaction-new"):
        browser.get(web.base + pages[name])
        browser.save_screenshot(str(artifacts / f"{name}-360-dark.png"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.set_window_size(1280, 800)
    assert not overflowing, f"wider than 360 px: {overflowing}"
    # Then a signed-out browser sees the way in.
    browser.get(web.base + "/")
    browser.find_element(By.LINK_TEXT, "Sign out").click()
    submit(browser, "/signout")
    assert browser.current_url == web.base + "/"
    assert "ledgerly web open" in browser.page_source
    browser.get(web.base + "/wallets")
    assert "ledgerly web open" in browser.page_source
    browser.save_screenshot(str(artifacts / "signin-1280.png"))


def test_it_stops_promptly_with_a_live_page_open(web):
    """SIGTERM with an `/events` stream open: the streams are ended first, so the server's graceful
    shutdown does not wait for the browser (runs last: it stops this module's ledgerly-web)."""
    cookie = web.session_cookie()
    parsed = urllib.parse.urlsplit(web.base)
    stream = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    stream.request("GET", "/events", headers={"Cookie": cookie})
    response = stream.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
    assert response.read(len(b"retry: 1000\n\n")) == b"retry: 1000\n\n"
    started = time.monotonic()
    web.proc.terminate()
    web.proc.wait(timeout=8)
    assert time.monotonic() - started < 3
    assert web.proc.returncode == 0
    assert not (web.home / "run" / "web.address").exists()
    stream.close()
