"""Browser tests: the web app in headless Chromium, driven with Selenium over WebDriver.

Fixtures
  server           a `countersign serve` on a free port with a fresh 0700 data dir (module scope)
  start_server     a factory for a server with extra flags (e.g. `--quote-seconds 30`)
  browser          headless Chromium at 390×844; fails the test on SEVERE console entries
                   except those declared with `allow_console(browser, pattern)`
Screens
  screenshot(browser, name)   <name>.png at 390×844 and <name>-desktop.png at 1280×800, each checked
                              with axe-core (no serious or critical violation)
  wait_title(browser, text)   also checks each new screen with axe; set_viewport(browser, w, h)
Helpers
  add_authenticator / set_user_verified / remove_authenticator   WebDriver's virtual authenticator
  sign_up, sign_in, enrol_passkey, unlock_with_pin, fund, api_signup, api_login, go, wait_for, wait_text, screenshot
  wait_error(browser, scope, code, words)   the error box for a server code: words first, the code in its details
  naira(minor), euro(minor)                 an amount as the app writes it (ui.money)
  app_page                                  a fixture: the browser on the app, for tests importing its modules
  enter_code(browser, server, step, phone)   a code step of the app: Send code, the code from /sim/sms, typed in
  server.grant_operator(phone)   `countersign operator grant` on the server's store
  server.code(phone, purpose)    (verificationId, code): a code asked for from the test, read from the SMS simulator

Environment
  COUNTERSIGN_BIN       the server binary (default <repo>/.build/debug/countersign)
  COUNTERSIGN_WEB_ROOT  serve the web app from this directory (default: the bundled files)
  SCREENS_DIR           where screenshots go (default <repo>/.build/screens)
"""

import os

# Selenium must never download a driver or a browser (no network here, and none wanted in CI).
os.environ["SE_OFFLINE"] = "true"

import json
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("COUNTERSIGN_BIN", REPO / ".build" / "debug" / "countersign"))
WEB_ROOT = os.environ.get("COUNTERSIGN_WEB_ROOT")
SCREENS_DIR = Path(os.environ.get("SCREENS_DIR", REPO / ".build" / "screens"))
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

WAIT = 15  # seconds for any one expected change on a page

# Signup refuses weak PINs (1234, runs, repeats, the commonest ones): these are not weak.
PIN = "4827"
OTHER_PIN = "5931"
LOCAL_PIN = "2468"  # this browser's soft-lock PIN: kept in the page only, no server policy


# ------------------------------------------------------------------------------------------------
# The server


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `countersign serve` process and its data directory."""

    def __init__(self, extra_args=()):
        self.port = free_port()
        self.base_url = f"http://localhost:{self.port}"
        self.data_dir = tempfile.mkdtemp(prefix="countersign-browser-")
        os.chmod(self.data_dir, 0o700)
        self.log_path = Path(self.data_dir) / "server.log"
        args = [
            str(BIN), "serve",
            "--data-dir", self.data_dir,
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--no-rate-limits",
            "--origin", self.base_url,
            *extra_args,
        ]
        if WEB_ROOT and "--web-root" not in extra_args:
            args += ["--web-root", WEB_ROOT]
        self.args = args
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self._wait_healthy()

    def _wait_healthy(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"countersign serve exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"countersign serve did not become healthy in {timeout}s:\n{self.log_text()}")

    def log_text(self, tail=200):
        try:
            self.log.flush()
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-tail:])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    # --- the SMS simulator (the server is in test mode: /sim/sms) --------------------------------

    def messages(self, phone):
        """What the SMS simulator sent to `phone`, newest first: [{to, body, sentAt}]."""
        status, body = self.api("GET", "/sim/sms?phone=" + urllib.parse.quote(phone))
        assert status == 200, (status, body)
        return body["messages"]

    def new_code(self, phone, before, timeout=10):
        """The code of the first message to `phone` not among `before` (messages seen earlier): the
        simulator gets it from a queue, so it may take a moment."""
        seen = {(m["body"], m["sentAt"]) for m in before}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.messages(phone):
                match = re.match(r"(\d{6})\b", m["body"])
                if match and (m["body"], m["sentAt"]) not in seen:
                    return match.group(1)
            time.sleep(0.1)
        raise AssertionError(f"no new code sent to {phone} within {timeout}s: {self.messages(phone)}")

    def code(self, phone, purpose, token=None):
        """Asks for a code (as the signed-in user of `token`, for `change-phone`); (verificationId, code)."""
        before = self.messages(phone)
        status, body = self.api("POST", "/auth/phone/verifications", {"phone": phone, "purpose": purpose}, token=token)
        assert status == 202, (status, body)
        return body["verificationId"], self.new_code(phone, before)

    # --- operator and API helpers ---------------------------------------------------------------

    def fund(self, phone, amount, currency=None):
        """Credits `amount` minor units (kobo, or cents of `currency`) with the operator CLI, which
        takes whole units (it runs beside the live server: SQLite in WAL)."""
        units = f"{amount // 100}.{amount % 100:02d}"
        wallet = ["--currency", currency] if currency else []
        subprocess.run(
            [str(BIN), "wallet", "fund", "--data-dir", self.data_dir, "--phone", phone, "--amount", units,
             "--reference", f"browser-test-{secrets.token_hex(6)}", *wallet],
            check=True, capture_output=True, timeout=30,
        )

    def grant_operator(self, phone):
        """Makes the user with `phone` an operator with the CLI (beside the live server, as `fund`)."""
        subprocess.run(
            [str(BIN), "operator", "grant", "--data-dir", self.data_dir, "--phone", phone],
            check=True, capture_output=True, timeout=30,
        )

    def api(self, method, path, body=None, token=None, headers=None):
        """One API call from the test (not the browser); returns (status, parsed JSON or None)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for k, v in (headers or {}).items():
            request.add_header(k, v)
        try:
            with urllib.request.urlopen(request, timeout=15) as r:
                text = r.read().decode()
                return r.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            return e.code, (json.loads(text) if text else None)


def _start(extra_args=()):
    if not BIN.exists():
        pytest.fail(f"no server binary at {BIN}: run `swift build` first or set COUNTERSIGN_BIN")
    return Server(extra_args)


@pytest.fixture(scope="module")
def server():
    """A server for the tests of one module: its base URL is `server.base_url`."""
    s = _start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def start_server():
    """A factory for servers with extra flags; each is stopped after the module."""
    started = []

    def start(*extra_args):
        s = _start(extra_args)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def fund(server, phone, amount):
    """Credits `amount` minor units to the wallet of `phone`."""
    server.fund(phone, amount)


# The device token each phone signed up with from the test: a login with it needs no code.
_device_tokens = {}


def api_signup(server, phone, name="Payee", pin=PIN):
    """Signs up a user from the test, not the browser (a signup code read from the SMS simulator);
    returns the session token."""
    verification_id, code = server.code(phone, "signup")
    status, body = server.api("POST", "/auth/signup",
                              {"verificationId": verification_id, "code": code, "name": name, "pin": pin})
    assert status == 201, (status, body)
    _device_tokens[phone] = body.get("deviceToken")
    return body["sessionToken"]


def api_login(server, phone, pin=PIN, with_code=None):
    """A login from the test; returns (status, body). A phone signed up with `api_signup` signs in as
    that known device (PIN alone); any other asks for a login code first (or pass `with_code`)."""
    request = {"phone": phone, "pin": pin}
    token = _device_tokens.get(phone)
    if with_code is None:
        with_code = not token
    if with_code:
        request["verificationId"], request["code"] = server.code(phone, "login")
    elif token:
        request["deviceToken"] = token
    return server.api("POST", "/auth/login", request)


_phones = set()


def new_phone():
    """A Nigerian mobile number (080 + 8 digits) not used before in this run."""
    while True:
        phone = "080" + "".join(secrets.choice("0123456789") for _ in range(8))
        if phone not in _phones:
            _phones.add(phone)
            return phone


# ------------------------------------------------------------------------------------------------
# The browser


def _chrome(extra_args=()):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.add_argument("--headless=new")
    options.add_argument("--window-size=390,844")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--disable-gpu")
    options.add_argument("--no-first-run")
    options.add_argument("--disable-search-engine-choice-screen")
    options.add_argument("--password-store=basic")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    for argument in extra_args:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    # Headless windows have a minimum width; the viewport is what the page sees.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.allowed_console = []
    driver.viewport = PHONE
    driver.set_script_timeout(WAIT)
    return driver


def new_browser(*extra_args):
    """Another phone-sized headless Chromium (e.g. a second user's, or with extra switches); quit it
    yourself, and check `console_errors(driver)` at the end."""
    return _chrome(extra_args)


def enable_spc_auto_accept(driver):
    """Secure Payment Confirmation's sheet accepted by WebDriver (the browser needs
    `--enable-features=SecurePaymentConfirmationBrowser`)."""
    driver.command_executor.add_command("spcSetMode", "POST", "/session/$sessionId/secure-payment-confirmation/set-mode")
    driver.execute("spcSetMode", {"mode": "autoAccept"})


@pytest.fixture
def browser(request):
    """Headless Chromium at 390×844. A SEVERE console entry fails the test unless allowed."""
    driver = _chrome()
    yield driver
    driver.quit()


@pytest.fixture
def app_page(server, browser):
    """The browser on the app's first page, for tests that import its modules in the page."""
    go(browser, server, "/")
    wait_for(browser, "main")
    return browser


def allow_console(browser, pattern):
    """Declares an expected SEVERE console entry (regex), e.g. r'/biometric/auth/verify .*401'."""
    browser.allowed_console.append(re.compile(pattern))


def console_errors(browser):
    entries = browser.get_log("browser")
    browser.console_seen = getattr(browser, "console_seen", []) + entries
    return [
        e for e in entries
        if e.get("level") == "SEVERE" and not any(p.search(e.get("message", "")) for p in browser.allowed_console)
    ]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After each test body: no unexpected console errors in the browser."""
    result = yield
    driver = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    if driver is not None:
        errors = console_errors(driver)
        assert not errors, "browser console errors:\n" + "\n".join(e["message"] for e in errors)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        for name in ("server",):
            s = item.funcargs.get(name) if hasattr(item, "funcargs") else None
            if isinstance(s, Server):
                report.sections.append(("countersign serve log (tail)", s.log_text(80)))
        driver = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
        if driver is not None:
            try:
                screenshot(driver, f"FAILED-{item.name}")
                seen = getattr(driver, "console_seen", []) + driver.get_log("browser")
                report.sections.append(("browser console", "\n".join(f"{e['level']} {e['message']}" for e in seen)))
            except Exception:  # the browser may be gone
                pass
    return report


# --- virtual authenticator ------------------------------------------------------------------------


def add_authenticator(browser, user_verified=True):
    """A platform authenticator with biometrics: CTAP2, internal, resident keys, user verification."""
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_consenting = True
    options.is_user_verified = user_verified
    browser.add_virtual_authenticator(options)
    return browser.virtual_authenticator_id


def set_user_verified(browser, verified):
    """Makes the authenticator's biometric check succeed or fail."""
    browser.set_user_verified(verified)


def remove_authenticator(browser):
    browser.remove_virtual_authenticator()


def credentials(browser):
    """The credentials the virtual authenticator holds."""
    return browser.get_credentials()


# --- page helpers ---------------------------------------------------------------------------------


def go(browser, server, path="/"):
    """Opens an app route, e.g. go(browser, server, '/airtime')."""
    browser.get(f"{server.base_url}/#{path}")


def wait_for(browser, css, timeout=WAIT, visible=True):
    condition = EC.visibility_of_element_located if visible else EC.presence_of_element_located
    try:
        return WebDriverWait(browser, timeout).until(condition((By.CSS_SELECTOR, css)))
    except TimeoutException:
        raise AssertionError(f"no {css!r} within {timeout}s; page says:\n{page_text(browser)}") from None


def wait_text(browser, css, text, timeout=WAIT):
    """Waits until the element's text contains `text`; returns the element."""
    try:
        WebDriverWait(browser, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
    except TimeoutException:
        raise AssertionError(f"{css!r} never said {text!r} within {timeout}s; page says:\n{page_text(browser)}") from None
    return browser.find_element(By.CSS_SELECTOR, css)


def wait_title(browser, text, timeout=WAIT):
    """Waits for the screen's heading; then checks the screen with axe (once per screen and browser)."""
    heading = wait_text(browser, "main h1", text, timeout)
    check_screen(browser)
    return heading


def wait_error(browser, scope, code, words=None, timeout=WAIT):
    """Waits for the error box in `scope` (a CSS selector) for the server's `code`; checks it says
    `words` (if given) and that the code shows only behind its "Details for support" disclosure.
    Returns the box."""
    css = f"{scope} .error[data-code='{code}']"
    box = wait_for(browser, css, timeout)
    if words:
        wait_text(browser, css, words, timeout)
    assert code not in box.text, f"the code is the headline: {box.text!r}"
    return box


def error_reference(box):
    """Opens an error box's details and returns the reference (the request's trace id) shown there."""
    box.find_element(By.CSS_SELECTOR, "details.error-details summary").click()
    return box.find_element(By.CSS_SELECTOR, ".reference code").text


def page_text(browser):
    try:
        return browser.find_element(By.TAG_NAME, "main").text
    except Exception:
        return "(no page)"


def fill(browser, css, value):
    el = wait_for(browser, css)
    el.clear()
    el.send_keys(value)
    return el


def click(browser, css):
    el = WebDriverWait(browser, WAIT).until(EC.element_to_be_clickable((By.CSS_SELECTOR, css)))
    el.click()
    return el


PHONE = (390, 844)
DESKTOP = (1280, 800)


def set_viewport(browser, width, height):
    """What the page sees as its window: a phone (390×844, touch) or a desktop (1280×800)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 720})
    browser.viewport = (width, height)


def screenshot(browser, name):
    """Writes the page at both sizes to $SCREENS_DIR: <name>.png at 390×844 and <name>-desktop.png at
    1280×800, and checks each with axe (no serious or critical violation); the viewport is left as
    the test had it."""
    SCREENS_DIR.mkdir(parents=True, exist_ok=True)
    before = getattr(browser, "viewport", PHONE)
    paths = []
    for size, suffix in ((PHONE, ""), (DESKTOP, "-desktop")):
        set_viewport(browser, *size)
        time.sleep(0.2)  # let layout, focus rings and transitions settle
        path = SCREENS_DIR / f"{name}{suffix}.png"
        browser.save_screenshot(str(path))
        paths.append(path)
        if not name.startswith("FAILED-"):
            check_accessibility(browser, f"{name}{suffix}")
    set_viewport(browser, *before)
    return paths[0]


# --- accessibility (axe-core 4, from the selenium-axe-python package) ------------------------------

AXE_IMPACTS = ("serious", "critical")


def _axe_source():
    import selenium_axe_python

    return (Path(selenium_axe_python.__file__).parent / "axe-core" / "axe.min.js").read_text(encoding="utf8")


def axe_violations(browser):
    """axe's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules and
    best practices)."""
    if not browser.execute_script("return typeof window.axe === 'object'"):
        browser.execute_script(_axe_source())
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations), (e) => done({error: String(e)}));"
    )
    assert not isinstance(result, dict), f"axe did not run: {result}"
    return [v for v in result if v.get("impact") in AXE_IMPACTS]


def check_accessibility(browser, where):
    """Fails with axe's report when the page has a serious or critical violation."""
    violations = axe_violations(browser)
    report = []
    for v in violations:
        nodes = "; ".join(" ".join(n["target"]) if isinstance(n["target"][0], str) else str(n["target"])
                          for n in v["nodes"][:5])
        report.append(f"{v['impact']} {v['id']}: {v['help']} — {nodes}")
    assert not violations, f"accessibility violations on {where} ({browser.current_url}):\n" + "\n".join(report)


def check_screen(browser):
    """Checks the screen now shown once per browser (by address and heading): wait_title calls it,
    so every screen a test arrives at is checked, at the size the test uses."""
    try:
        key = browser.execute_script(
            "return location.pathname + location.hash.split('?')[0] + '|' + (document.querySelector('main h1')?.textContent || '')")
    except Exception:
        return
    seen = browser.__dict__.setdefault("screens_checked", set())
    if key in seen:
        return
    seen.add(key)
    check_accessibility(browser, key)


def naira(minor):
    """How the app writes an amount (ui.money, one rule for every currency): 500000 → '₦5,000.00'."""
    return f"{'-' if minor < 0 else ''}₦{abs(minor) // 100:,}.{abs(minor) % 100:02d}"


def euro(minor):
    """How the app writes euros (the same rule as naira): 9500 → '€95.00'."""
    return f"{'-' if minor < 0 else ''}€{abs(minor) // 100:,}.{abs(minor) % 100:02d}"


# --- flows ----------------------------------------------------------------------------------------


def enter_code(browser, server, step, phone, send=True):
    """A code step of the app (`step` is its id, e.g. 'signup-sms'): presses Send code, reads the code
    from the SMS simulator and types it in. Returns the code."""
    before = server.messages(phone)
    if send:
        click(browser, f"#{step}-send")
    code = server.new_code(phone, before)
    fill(browser, f"#{step}-code", code)
    return code


def sign_up(browser, server, phone, name="Ada Obi", pin=PIN, local_pin=LOCAL_PIN):
    """Creates an account in the app (the number proven by a code) and sets this browser's unlock code;
    ends on the dashboard. With `local_pin=None` it stops where the unlock code is asked."""
    go(browser, server, "/signup")
    fill(browser, "#signup-phone", phone)
    enter_code(browser, server, "signup-sms", phone)
    fill(browser, "#signup-name", name)
    fill(browser, "#signup-pin", pin)
    fill(browser, "#signup-pin2", pin)
    click(browser, "#signup-submit")
    if local_pin is None:
        return
    set_local_pin(browser, local_pin)
    wait_for(browser, "#balance")
    wait_text(browser, "#balance", "₦")


def set_local_pin(browser, local_pin=LOCAL_PIN):
    fill(browser, "#setup-pin", local_pin)
    fill(browser, "#setup-pin2", local_pin)
    click(browser, "#setup-submit")


def sign_in(browser, server, phone, pin=PIN):
    """Signs in with phone and PIN; where this browser is new to the account, with a code as well.
    Returns whether a code was needed."""
    go(browser, server, "/signin")
    fill(browser, "#signin-phone", phone)
    fill(browser, "#signin-pin", pin)
    click(browser, "#signin-submit")

    def settled(driver):
        if not driver.execute_script("return location.hash").startswith("#/signin"):
            return "in"
        send = driver.find_elements(By.CSS_SELECTOR, "#signin-sms-send")
        if send and send[0].is_displayed():
            return "code"
        if driver.find_elements(By.CSS_SELECTOR, "#signin-form .error"):
            return "refused"
        return False

    try:
        outcome = WebDriverWait(browser, WAIT).until(settled)
    except TimeoutException:
        raise AssertionError(f"sign-in did not go on; page says:\n{page_text(browser)}") from None
    if outcome != "code":
        return False
    allow_console(browser, r"/auth/login .*401")  # phone_code_required: the app asks for the code
    enter_code(browser, server, "signin-sms", phone)
    click(browser, "#signin-submit")
    return True


def enrol_passkey(browser, server, pin=PIN):
    """Adds a passkey on the Keys screen (PIN step-up); returns its credential id (base64url)."""
    go(browser, server, "/keys")
    before = {e.get_attribute("data-id") for e in browser.find_elements(By.CSS_SELECTOR, "#keys li")}
    fill(browser, "#enrol-pin", pin)
    click(browser, "#enrol-submit")
    wait_text(browser, "#enrol-form .notice", "Passkey added")
    rows = browser.find_elements(By.CSS_SELECTOR, "#keys li")
    added = [r.get_attribute("data-id") for r in rows if r.get_attribute("data-id") not in before]
    assert len(added) == 1, page_text(browser)
    return added[0]


def unlock_with_pin(browser, local_pin=LOCAL_PIN):
    fill(browser, "#lock-pin", local_pin)
    click(browser, "#lock-pin-submit")


def funded_with_passkey(browser, server, funds):
    """Signs up a new user in this browser with `funds` in the wallet and a passkey; returns the phone."""
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    server.fund(phone, funds)
    enrol_passkey(browser, server)
    return phone


def wallet(browser):
    """The wallet as the signed-in browser's session sees it (fetched in the page)."""
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/user/wallet', {credentials: 'same-origin'}).then(r => r.json()).then(done, e => done({error: String(e)}));"
    )


def fetch_json(browser, method, path, body=None):
    """A same-origin API call from the page (session cookie); returns {status, body}."""
    return browser.execute_async_script(
        """
        const [method, path, body, done] = arguments;
        const init = {method, credentials: 'same-origin', headers: {}};
        if (body !== null) { init.body = JSON.stringify(body); init.headers['Content-Type'] = 'application/json'; }
        fetch(path, init).then(async r => {
          const t = await r.text();
          done({status: r.status, body: t ? JSON.parse(t) : null});
        }, e => done({status: 0, body: String(e)}));
        """,
        method, path, body,
    )
