"""ledgerly-web beyond loopback (issue 47, D590-D598): HTTPS only, pairing codes, paired devices,
revoke; and the sign-in fixes that hold on loopback too (a stale run/web.address, the clock).

Serving beyond loopback needs an address that is not loopback. This module makes its own test
host rather than use the machine's network: a network namespace (`ip netns`) joined to this one by
a veth pair, 10.247.N.2 inside and 10.247.N.1 (plus .3-.9, one per "phone", so each has its own
address for the per-address rate limit) on this side. ledgerly-web runs inside the namespace
(`ip netns exec`) and listens on 10.247.N.2; the tests and Chromium reach it through the veth
pair, so no packet leaves the machine. The store and the other services run as usual: their ipc
sockets are files in the home, which a network namespace does not hide. Needs root and iproute2
(CI runs as root); without them the tests that need the namespace are skipped with the reason.

A "phone" is an http.client HTTPS connection from its own address that checks the served
certificate by its SHA-256 fingerprint (the one `ledgerly web pair` prints, as a person compares
it), with its own cookie jar. Tests run in file order and build on each other; the pairing rate limit (5
attempts a minute from one address, 10 from all, D593) is counted across them, and a restart of
ledgerly-web (which forgets the counts) comes before the tests that spend it.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import ssl
import stat
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

import pytest

from conftest import Services, base_env, binary, run_cli
from web_support import WEB_REQUIREMENTS, XSS, By, CHROMEDRIVER, CHROMIUM, WebDriverWait, artifacts, expected_conditions, fit_phone_and_desktop  # noqa: F401
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service as ChromeService

pytestmark = WEB_REQUIREMENTS

NETWORK = f"10.247.{os.getpid() % 250 + 1}"
NAMESPACE = f"lwacc{os.getpid()}"
VETH = f"lwv{os.getpid() % 100000}"


def can_make_namespaces() -> str | None:
    if os.geteuid() != 0:
        return "needs root to make a network namespace (CI runs as root)"
    if not shutil.which("ip"):
        return "needs iproute2's ip"
    return None


def sh(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, timeout=20)


class Lan:
    """Services on a temporary home, ledgerly-web in its own network namespace on 10.247.N.2."""

    def __init__(self, home: Path):
        self.home = home
        self.services = Services(home)
        self.proc: subprocess.Popen | None = None
        self.base = ""
        self.fingerprint = ""

    def make_network(self) -> None:
        sh("ip", "netns", "add", NAMESPACE)
        sh("ip", "netns", "exec", NAMESPACE, "ip", "link", "set", "lo", "up")
        sh("ip", "link", "add", VETH + "a", "type", "veth", "peer", "name", VETH + "b")
        sh("ip", "link", "set", VETH + "b", "netns", NAMESPACE)
        for host in (1, 3, 4, 5, 6, 7, 8, 9):
            sh("ip", "addr", "add", f"{NETWORK}.{host}/24", "dev", VETH + "a")
        sh("ip", "link", "set", VETH + "a", "up")
        sh("ip", "netns", "exec", NAMESPACE, "ip", "addr", "add", f"{NETWORK}.2/24", "dev", VETH + "b")
        sh("ip", "netns", "exec", NAMESPACE, "ip", "link", "set", VETH + "b", "up")

    def remove_network(self) -> None:
        subprocess.run(["ip", "link", "del", VETH + "a"], capture_output=True, timeout=20)
        subprocess.run(["ip", "netns", "del", NAMESPACE], capture_output=True, timeout=20)

    def start_web(self) -> None:
        address = self.home / "run" / "web.address"
        address.unlink(missing_ok=True)
        log = open(self.home.parent / f"{self.home.name}.ledgerly-web.log", "ab")
        self.proc = subprocess.Popen(["ip", "netns", "exec", NAMESPACE, binary("ledgerly-web"), "--home", str(self.home), "--listen", f"{NETWORK}.2:0"],
                                     env=base_env(self.home), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        end = time.monotonic() + 20
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"ledgerly-web exited with {self.proc.returncode}: {self.log()}"
            if address.exists():
                lines = address.read_text().splitlines()
                self.base, self.fingerprint = lines[0], lines[2]
                return
            time.sleep(0.05)
        raise RuntimeError("ledgerly-web did not write run/web.address: " + self.log())

    def stop_web(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def log(self) -> str:
        return (self.home.parent / f"{self.home.name}.ledgerly-web.log").read_text(errors="replace")[-3000:]

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return run_cli(self.home, *args)

    def pair_code(self) -> dict:
        result = self.cli("web", "pair", "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)


@pytest.fixture(scope="module")
def lan():
    reason = can_make_namespaces()
    if reason:
        pytest.skip(reason)
    home = Path(tempfile.mkdtemp(prefix="lwa", dir="/tmp"))
    lan = Lan(home)
    try:
        lan.make_network()
        lan.services.start()
        lan.services.wait_ready()
        result = lan.cli("setup", "--base-currency", "EUR", "--exchange-mode", "manual", "--sync", "off", "--yes")
        assert result.returncode == 0, result.stderr
        lan.start_web()
        yield lan
    finally:
        lan.stop_web()
        lan.services.stop()
        lan.remove_network()
        shutil.rmtree(home, ignore_errors=True)


class Phone:
    """An HTTPS client from its own address (10.247.N.host) with its own cookies, which trusts the
    service's certificate only by the fingerprint `ledgerly web pair` printed."""

    def __init__(self, lan: Lan, host: int, user_agent: str = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"):
        self.lan = lan
        self.source = f"{NETWORK}.{host}"
        self.user_agent = user_agent
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []
        self.fingerprint = lan.fingerprint.replace(":", "").lower()

    def request(self, method: str, path: str, form: dict | None = None):
        parsed = urllib.parse.urlsplit(self.lan.base)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # checked below, by fingerprint, as a person would
        connection = http.client.HTTPSConnection(parsed.hostname, parsed.port, context=context, timeout=10, source_address=(self.source, 0))
        connection.connect()
        served = hashlib.sha256(connection.sock.getpeercert(binary_form=True)).hexdigest()
        assert served == self.fingerprint, "the certificate served is not the one ledgerly web pair named"
        headers = {"User-Agent": self.user_agent}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        self.set_cookies = response.msg.get_all("Set-Cookie") or []
        for line in self.set_cookies:
            name, _, rest = line.partition("=")
            value = rest.split(";")[0]
            if "Max-Age=0" in line:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        status = response.status
        headers = {k.lower(): v for k, v in response.getheaders()}
        connection.close()
        return status, headers, text

    def pair(self, code: str | None, name: str = ""):
        status, _, page = self.request("GET", "/pair")
        assert status == 200, page
        token = re.search(r'name="_pair" value="([0-9a-f]{64})"', page).group(1)
        form = {"_pair": token, "name": name}
        if code is not None:
            form["code"] = code
        return self.request("POST", "/pair", form)


def devices(lan: Lan) -> list[dict]:
    result = lan.cli("web", "devices", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["devices"]


def test_plain_http_is_refused_beyond_loopback(lan):
    assert lan.base.startswith(f"https://{NETWORK}.2:")
    parsed = urllib.parse.urlsplit(lan.base)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10, source_address=(f"{NETWORK}.1", 0))
    with pytest.raises((http.client.HTTPException, ConnectionError)):
        connection.request("GET", "/")
        connection.getresponse()
    connection.close()


def test_the_certificate_is_kept_private_and_named_by_pair(lan):
    web = lan.home / "web"
    assert stat.S_IMODE(web.stat().st_mode) == 0o700
    for name in ("certificate.pem", "key.pem"):
        assert stat.S_IMODE((web / name).stat().st_mode) == 0o600, name
    der = ssl.PEM_cert_to_DER_cert((web / "certificate.pem").read_text())
    pairing = lan.pair_code()
    assert pairing["fingerprint"] == lan.fingerprint == ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())
    assert pairing["address"] == lan.base + "/pair"
    assert re.fullmatch(r"[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}", pairing["code"]), pairing["code"]
    text = lan.cli("web", "pair")
    assert text.returncode == 0 and pairing["fingerprint"] in text.stdout and lan.base + "/pair" in text.stdout
    assert "▀" in text.stdout or "▄" in text.stdout, "the QR code is drawn"


def test_no_page_without_a_session(lan):
    phone = Phone(lan, 3)
    for path in ("/", "/wallets", "/setup", "/events"):
        status, headers, text = phone.request("GET", path)
        assert status == 401, path
        assert "ledgerly web pair" in text and 'href="/pair"' in text
        assert headers["content-security-policy"].startswith("default-src 'self'")
    status, _, _ = phone.request("POST", "/transactions/new", {"amount": "1"})
    assert status == 401


def test_pairing_needs_the_code_and_works_once_with_it(lan):
    phone = Phone(lan, 3)
    code = lan.pair_code()["code"]
    refused = []
    for attempt in (None, "ABCD-EFGH"):
        status, _, text = phone.pair(attempt)
        assert status == 422, text
        refused.append(re.search(r'<p class="error" role="alert">(.*?)</p>', text).group(1))
    assert refused[0] == refused[1], "a wrong code and no code get the same answer"
    assert "ledgerly_device" not in phone.cookies
    # A form without this browser's pairing cookie is refused, right code or not.
    forged = Phone(lan, 4)
    status, _, page = forged.request("GET", "/pair")
    token = re.search(r'name="_pair" value="([0-9a-f]{64})"', page).group(1)
    forged.cookies.clear()
    status, _, _ = forged.request("POST", "/pair", {"_pair": token, "code": code})
    assert status == 403 and "ledgerly_device" not in forged.cookies
    # The right code: a paired device.
    status, headers, _ = phone.pair(code.lower(), name="Anna's phone")
    assert status == 303 and headers["location"] == "/"
    device_cookie = next(line for line in phone.set_cookies if line.startswith("ledgerly_device="))
    session_cookie = next(line for line in phone.set_cookies if line.startswith("ledgerly_session="))
    for line in (device_cookie, session_cookie):
        assert "Secure" in line and "HttpOnly" in line and "SameSite=Strict" in line, line
    assert "Max-Age=34560000" in device_cookie
    status, _, text = phone.request("GET", "/")
    assert status == 200 and "<h1>Dashboard</h1>" in text
    # The home keeps the token's hash only.
    token_value = phone.cookies["ledgerly_device"]
    stored = list((lan.home / "web" / "devices").iterdir())
    assert [p.name for p in stored] == [hashlib.sha256(token_value.encode()).hexdigest() + ".json"]
    assert stat.S_IMODE(stored[0].stat().st_mode) == 0o600 and token_value not in stored[0].read_text()
    # The code is used up: another phone cannot pair with it.
    status, _, _ = forged.pair(code)
    assert status == 422 and "ledgerly_device" not in forged.cookies
    listed = devices(lan)
    assert [d["name"] for d in listed] == ["Anna's phone"]
    assert "Firefox/128.0" in listed[0]["userAgent"]
    assert listed[0]["pairedAt"].endswith("Z") and listed[0]["lastSeenAt"] >= listed[0]["pairedAt"]


def test_the_pairing_page_echoes_nothing_unescaped(lan):
    phone = Phone(lan, 5)
    status, _, text = phone.pair("ABCD-EFGH", name=XSS[:60])
    assert status == 422
    assert "<script>window.__xss" not in text and "&lt;script&gt;window.__xss" in text


def test_a_revoked_device_is_locked_out(lan):
    phone = Phone(lan, 4)
    code = lan.pair_code()["code"]
    status, _, _ = phone.pair(code, name="revoke me")
    assert status == 303
    assert phone.request("GET", "/wallets")[0] == 200
    device = next(d for d in devices(lan) if d["name"] == "revoke me")
    result = lan.cli("web", "revoke", device["id"])
    assert result.returncode == 0, result.stderr
    status, _, text = phone.request("GET", "/wallets")
    assert status == 401 and "not signed in" in text
    # Its device cookie no longer opens a session either.
    phone.cookies.pop("ledgerly_session", None)
    assert phone.request("GET", "/")[0] == 401
    missing = lan.cli("web", "revoke", device["id"])
    assert missing.returncode == 1 and "no paired device" in missing.stderr


def test_a_paired_device_survives_a_restart(lan):
    phone = Phone(lan, 6)
    assert phone.pair(lan.pair_code()["code"], name="kept")[0] == 303
    fingerprint = lan.fingerprint
    lan.stop_web()
    lan.start_web()
    assert lan.fingerprint == fingerprint, "the certificate is reused, not made again"
    phone.cookies.pop("ledgerly_session", None)
    status, _, text = phone.request("GET", "/")
    assert status == 200 and "<h1>Dashboard</h1>" in text
    assert any(line.startswith("ledgerly_session=") for line in phone.set_cookies), "a new session for the device cookie"


def test_pairing_in_a_browser(lan, artifacts):
    options = Options()
    options.binary_location = CHROMIUM
    # Only here: the certificate is self-signed (the phone's person checks its fingerprint).
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                     "--force-device-scale-factor=1", "--ignore-certificate-errors"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=ChromeService(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(15)
    try:
        assert fit_phone_and_desktop(lan, browser, artifacts, {"access-pair": "/pair"}) == []
        code = lan.pair_code()["code"]
        browser.get(lan.base + "/pair")
        browser.find_element(By.ID, "code").send_keys(code)
        browser.find_element(By.ID, "name").send_keys("Chromium")
        page = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.CSS_SELECTOR, "form[action='/pair'] button[type=submit]").click()
        WebDriverWait(browser, 10).until(expected_conditions.staleness_of(page))
        assert browser.current_url == lan.base + "/"
        assert browser.find_element(By.TAG_NAME, "h1").text == "Dashboard"
        assert "Chromium" in [d["name"] for d in devices(lan)]
    finally:
        browser.quit()


def test_pairing_attempts_are_rate_limited(lan):
    """5 attempts a minute from one address, 10 from all (D593); the restart above reset the counts,
    and the browser's pairing spent one."""
    guesser = Phone(lan, 7)
    for _ in range(5):
        assert guesser.pair("ABCD-EFGH")[0] == 422
    code = lan.pair_code()["code"]
    status, headers, text = guesser.pair(code)
    assert status == 429 and "Too many pairing attempts" in text, "refused even with the right code"
    assert 1 <= int(headers["retry-after"]) <= 60
    # From another address: allowed until all addresses together made 10.
    other = Phone(lan, 8)
    for _ in range(4):
        assert other.pair("ABCD-EFGH")[0] == 422
    assert other.pair(code)[0] == 429
    # The code was never tried, so it is still good once the minute is over (not waited for here).
    assert code.replace("-", "") in os.listdir(lan.home / "state" / "web-pairing")


def test_a_stale_address_file_is_not_a_running_web(tmp_path):
    """A pid in run/web.address that now belongs to another program (D598)."""
    other = subprocess.Popen(["sleep", "30"])
    try:
        (tmp_path / "run").mkdir()
        (tmp_path / "run" / "web.address").write_text(f"http://127.0.0.1:9\n{other.pid}\n")
        result = run_cli(tmp_path, "web", "open")
        assert result.returncode == 3 and "ledgerly-web is not running" in result.stderr, result.stdout
        assert not (tmp_path / "state" / "web-signin").exists() or not list((tmp_path / "state" / "web-signin").iterdir())
    finally:
        other.kill()
        other.wait()


def test_sign_in_links_are_timed_on_the_real_clock(tmp_path):
    """ledgerly-web with its clock an hour ahead still takes a link printed a moment ago (D596)."""
    home = Path(tempfile.mkdtemp(prefix="lwc", dir="/tmp"))
    proc = subprocess.Popen([binary("ledgerly-web"), "--home", str(home), "--listen", "127.0.0.1:0", "--clock-offset", "3600"],
                            env=base_env(home), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        address = home / "run" / "web.address"
        end = time.monotonic() + 20
        while not address.exists():
            assert time.monotonic() < end and proc.poll() is None, "ledgerly-web did not start"
            time.sleep(0.05)
        result = run_cli(home, "web", "open")
        assert result.returncode == 0, result.stderr
        link = urllib.parse.urlsplit(result.stdout.splitlines()[0])
        connection = http.client.HTTPConnection(link.hostname, link.port, timeout=10)
        connection.request("GET", f"{link.path}?{link.query}")
        response = connection.getresponse()
        response.read()
        assert response.status == 303, "the link was taken for expired"
        connection.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


def test_a_listen_address_must_be_an_ip_address(tmp_path):
    """Beyond loopback is served (as HTTPS); a host name is refused, naming where it came from."""
    result = subprocess.run([binary("ledgerly-web"), "--home", str(tmp_path), "--listen", "nas.local:8470"],
                            capture_output=True, text=True, timeout=20, env=base_env(tmp_path))
    assert result.returncode == 64 and "--listen: 'nas.local' is not an IP address" in result.stderr, result.stderr
    (tmp_path / "web.json").write_text('{"listen": "nas.local:8470"}')
    result = subprocess.run([binary("ledgerly-web"), "--home", str(tmp_path)], capture_output=True, text=True, timeout=20, env=base_env(tmp_path))
    assert result.returncode == 1 and "web.json: listen: 'nas.local' is not an IP address" in result.stderr, result.stderr
    assert "--listen" not in result.stderr
