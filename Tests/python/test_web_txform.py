"""ledgerly-web's transaction form in a real browser (issue 47): a split over categories made line
by line (more lines by sending the form back, no JavaScript needed) equals the CLI's
`tx show --json`; parts that do not add up, or a part the store refuses, are refused beside the
lines and nothing is kept; a one-off rate (the CLI's `tx add --rate`) is kept; editing a split
transaction shows its lines; a split line's memo cannot become markup; the form fits 360 px.
"""

from __future__ import annotations

import json

from web_support import WEB_REQUIREMENTS, XSS, By, Select, artifacts, browser, fit_phone_and_desktop, submit, web  # noqa: F401

pytestmark = WEB_REQUIREMENTS

NEW = "/transactions/new"


def ok(web, *args: str) -> str:
    result = web.cli(*args)
    assert result.returncode == 0, f"{args}: {result.stderr}"
    return result.stdout


def listed(web) -> list[dict]:
    listing = json.loads(ok(web, "tx", "list", "--wallet", "Checking", "--json"))
    return listing["transactions"] if isinstance(listing, dict) else listing


def category_id(web, name: str) -> int:
    listing = json.loads(ok(web, "category", "list", "--json"))
    categories = listing["categories"] if isinstance(listing, dict) else listing
    return next(c["id"] for c in categories if c["name"] == name)


def errors(browser) -> list[str]:
    return [e.text for e in browser.find_elements(By.CLASS_NAME, "error")]


def fill_line(browser, line: int, amount: str, category: str, memo: str = "") -> None:
    browser.find_element(By.ID, f"split_amount_{line}").send_keys(amount)
    Select(browser.find_element(By.ID, f"split_category_{line}")).select_by_visible_text(category)
    if memo:
        browser.find_element(By.ID, f"split_memo_{line}").send_keys(memo)


def start(browser, web, amount: str) -> None:
    browser.get(web.base + NEW)
    Select(browser.find_element(By.ID, "wallet")).select_by_visible_text("Checking (EUR)")
    browser.find_element(By.ID, "amount").send_keys(amount)


def test_setup_and_sign_in(web, browser):
    ok(web, "setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes")
    ok(web, "wallet", "add", "Checking", "--currency", "EUR")
    ok(web, "category", "add", "Market", "--kind", "expense")
    ok(web, "category", "add", "Hardware", "--kind", "expense")
    browser.get(web.sign_in_link())
    assert browser.current_url == web.base + "/"


def test_a_split_from_the_browser_equals_the_cli(web, browser):
    start(browser, web, "84.30")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#splits .split-line")) == 3
    fill_line(browser, 0, "60.00", "Market", "weekly shop")
    # More lines: the form comes back with three more, what was typed kept, nothing saved.
    submit_more = browser.find_element(By.CSS_SELECTOR, "button[name=more_lines]")
    page = browser.find_element(By.TAG_NAME, "html")
    submit_more.click()
    from web_support import WebDriverWait, expected_conditions
    WebDriverWait(browser, 10).until(expected_conditions.staleness_of(page))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#splits .split-line")) == 6
    assert browser.find_element(By.ID, "amount").get_attribute("value") == "84.30"
    assert browser.find_element(By.ID, "split_memo_0").get_attribute("value") == "weekly shop"
    assert listed(web) == []
    fill_line(browser, 4, "24.30", "Hardware", XSS)
    submit(browser, NEW)
    assert browser.current_url.startswith(web.base + "/wallets/"), errors(browser)
    [made] = listed(web)
    shown = json.loads(ok(web, "tx", "show", str(made["id"]), "--json"))
    assert shown["amount"] == "84.30" and shown.get("categoryId") is None
    assert [(p["amount"], p["categoryId"], p.get("memo")) for p in shown["splits"]] == [
        ("60.00", category_id(web, "Market"), "weekly shop"), ("24.30", category_id(web, "Hardware"), XSS)]
    # Editing it shows its lines, the memo inert.
    browser.get(f"{web.base}/transactions/{made['id']}")
    assert browser.find_element(By.ID, "split_amount_1").get_attribute("value") == "24.30"
    assert browser.find_element(By.ID, "split_memo_1").get_attribute("value") == XSS
    assert Select(browser.find_element(By.ID, "split_category_1")).first_selected_option.text == "Hardware"
    assert browser.execute_script("return window.__xss") is None
    assert not browser.find_elements(By.CSS_SELECTOR, "main img, main script")
    # An edit keeps the lines as they are sent back: the same parts.
    submit(browser, f"/transactions/{made['id']}")
    assert browser.current_url.startswith(web.base + "/wallets/"), errors(browser)
    again = json.loads(ok(web, "tx", "show", str(made["id"]), "--json"))
    assert again["splits"] == shown["splits"]


def test_parts_that_do_not_add_up_are_refused_beside_the_lines(web, browser):
    before = listed(web)
    start(browser, web, "50.00")
    fill_line(browser, 0, "30.00", "Market")
    fill_line(browser, 1, "10.00", "Hardware")
    submit(browser, NEW)
    assert browser.current_url == web.base + NEW
    message = browser.find_element(By.CSS_SELECTOR, "#splits > .error").text
    assert "add up to 40.00 EUR" in message and "50.00" in message
    assert browser.find_element(By.ID, "split_amount_1").get_attribute("value") == "10.00"
    # A part the store refuses: its error beside that line (line 3; line 2 was left blank).
    browser.find_element(By.ID, "split_amount_1").clear()
    fill_line(browser, 2, "0", "Hardware")
    Select(browser.find_element(By.ID, "split_category_1")).select_by_index(0)
    submit(browser, NEW)
    assert browser.find_elements(By.CSS_SELECTOR, "#split_2 .error"), errors(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "#split_0 .error, #split_1 .error")
    # A line without a category: refused beside it by the form.
    browser.find_element(By.ID, "split_amount_2").clear()
    browser.find_element(By.ID, "split_amount_2").send_keys("20.00")
    browser.find_element(By.ID, "split_amount_1").send_keys("5.00")
    submit(browser, NEW)
    assert "Choose a category" in browser.find_element(By.CSS_SELECTOR, "#split_1 .error").text
    assert listed(web) == before, "nothing is kept"


def test_a_one_off_rate_is_kept(web, browser):
    start(browser, web, "10.00")
    browser.find_element(By.ID, "currency").send_keys("USD")
    browser.find_element(By.ID, "rate").send_keys("0.9")
    submit(browser, NEW)
    assert browser.current_url.startswith(web.base + "/wallets/"), errors(browser)
    made = listed(web)[0]
    shown = json.loads(ok(web, "tx", "show", str(made["id"]), "--json"))
    assert (shown["currency"], shown["walletAmount"]) == ("USD", "9.00")
    assert shown["conversion"]["rate"] in ("0.9", "0.90") or shown["conversion"]["rate"].rstrip("0") == "0.9"
    assert shown["conversion"]["source"] == "override"
    # A rate on a transaction in the wallet's own currency is refused beside the rate.
    start(browser, web, "10.00")
    browser.find_element(By.ID, "rate").send_keys("2")
    submit(browser, NEW)
    assert browser.find_elements(By.CSS_SELECTOR, "#rate ~ .error"), errors(browser)


def test_the_form_fits_phone_and_desktop(web, browser, artifacts):
    split = next(t for t in listed(web) if t["splits"])
    assert fit_phone_and_desktop(web, browser, artifacts, {"txform-new": NEW, "txform-split": f"/transactions/{split['id']}"}) == []


def test_clearing_the_lines_of_a_split_gives_it_one_category(web, browser):
    split = next(t for t in listed(web) if t["splits"])
    browser.get(f"{web.base}/transactions/{split['id']}")
    for line in range(2):
        browser.find_element(By.ID, f"split_amount_{line}").clear()
        browser.find_element(By.ID, f"split_memo_{line}").clear()
        Select(browser.find_element(By.ID, f"split_category_{line}")).select_by_index(0)
    Select(browser.find_element(By.ID, "category")).select_by_visible_text("Market")
    submit(browser, f"/transactions/{split['id']}")
    assert browser.current_url.startswith(web.base + "/wallets/"), errors(browser)
    shown = json.loads(ok(web, "tx", "show", str(split["id"]), "--json"))
    assert (shown["splits"], shown["categoryId"]) == ([], category_id(web, "Market"))
