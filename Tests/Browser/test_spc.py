"""Secure Payment Confirmation in headless Chromium: a passkey registered with the `payment`
extension pays an airtime top-up through `PaymentRequest` (spc.js), the browser's own sheet
accepted by WebDriver's SPC automation; the server verifies the `payment.get` assertion against the
intent, and refuses one whose shown total differs.

Runs in a blank page served with the app's Content-Security-Policy from a web root of its own
(`--web-root`: an empty index.html beside this repository's spc.js), importing spc.js as the app
would, so it drives none of the app's screens. Chromium runs SPC with
`--enable-features=SecurePaymentConfirmationBrowser`; SPC wants an https payee origin
(`--payee-origin`), and one `show()` per page without a user gesture (each case loads a page).
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from conftest import CHROMEDRIVER, CHROMIUM, PIN, WAIT, add_authenticator, allow_console, api_signup, new_phone

SPC_JS = Path(os.environ.get("SPC_JS", Path(__file__).resolve().parents[2] / "Sources/CountersignServer/Resources/web/spc.js"))
PAYEE_ORIGIN = "https://shop.example"


@pytest.fixture(scope="module")
def spc_server(start_server):
    web_root = tempfile.mkdtemp(prefix="countersign-spc-web-")
    Path(web_root, "index.html").write_text('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SPC</title><link rel="icon" href="data:,"></head><body></body></html>\n')
    shutil.copy(SPC_JS, Path(web_root, "spc.js"))
    yield start_server("--payee-origin", PAYEE_ORIGIN, "--web-root", web_root)
    shutil.rmtree(web_root, ignore_errors=True)


@pytest.fixture
def browser():
    """The harness's phone-sized headless Chromium, with Secure Payment Confirmation switched on
    (the harness's hooks still check its console after each test)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--window-size=390,844", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                     "--disable-search-engine-choice-screen", "--password-store=basic",
                     "--enable-features=SecurePaymentConfirmationBrowser"):
        options.add_argument(argument)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.allowed_console = []
    driver.set_script_timeout(WAIT)
    yield driver
    driver.quit()


@pytest.fixture
def spc_browser(browser):
    """That browser with SPC's sheet accepted automatically and a platform passkey authenticator."""
    browser.command_executor.add_command("spcSetMode", "POST", "/session/$sessionId/secure-payment-confirmation/set-mode")
    browser.execute("spcSetMode", {"mode": "autoAccept"})
    add_authenticator(browser)
    return browser


API = """
async function api(method, path, body) {
  const init = { method, headers: { Authorization: 'Bearer ' + token } };
  if (body !== undefined) { init.body = JSON.stringify(body); init.headers['Content-Type'] = 'application/json'; }
  const r = await fetch(path, init);
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}
"""


def run(browser, script, *args):
    """Runs `script` (async statements that end with `return …`) with spc.js's exports, its
    base64url helpers and `api` in scope."""
    body = (
        "const done = arguments[arguments.length - 1];\n"
        "const [token, input] = arguments;\n"
        + API + HELPERS +
        "(async () => {\n"
        "const { canUseSPC, payWithSPC } = await import('/spc.js');\n"
        + script +
        "\n})().then(done, (e) => done({ error: String(e && e.name) + ': ' + String(e && e.message) }));"
    )
    return browser.execute_async_script(body, *args)


HELPERS = """
function fromBase64url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '==='.slice((base64.length + 3) % 4)), (c) => c.charCodeAt(0));
}
function toBase64url(buffer) {
  return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
}
"""


REGISTER = """
const options = await api('POST', '/biometric/register/options', { pin: input.pin, payment: true });
if (options.status !== 200) return { step: 'options', ...options };
const o = options.body;
const credential = await navigator.credentials.create({ publicKey: {
  challenge: fromBase64url(o.challenge), rp: o.rp,
  user: { id: fromBase64url(o.user.id), name: o.user.name, displayName: o.user.displayName },
  pubKeyCredParams: o.pubKeyCredParams, timeout: o.timeout, attestation: o.attestation,
  authenticatorSelection: o.authenticatorSelection, extensions: o.extensions,
} });
const verify = await api('POST', '/biometric/register/verify', {
  id: toBase64url(credential.rawId), rawId: toBase64url(credential.rawId), type: 'public-key',
  response: { clientDataJSON: toBase64url(credential.response.clientDataJSON),
              attestationObject: toBase64url(credential.response.attestationObject), transports: credential.response.getTransports() },
});
return { step: 'verify', extensions: o.extensions, ...verify };
"""

PAY = """
const can = await canUseSPC();
const options = await api('GET', '/biometric/auth/options?amount=' + input.amount + '&productCode=AIRTIME_MTN&recipientPhone=08012345678');
if (options.status !== 200) return { step: 'options', ...options };
const spc = options.body.securePaymentConfirmation;
const shown = { ...spc, total: { ...spc.total, value: input.value ?? spc.total.value } };
const assertion = await payWithSPC(shown, { label: 'Airtime' });
const clientData = JSON.parse(new TextDecoder().decode(fromBase64url(assertion.response.clientDataJSON)));
const verify = await api('POST', '/biometric/auth/verify', assertion);
if (verify.status !== 200) return { can, spc, clientData, verify };
const topUp = await api('POST', '/user/topup', { amount: input.amount, productCode: 'AIRTIME_MTN',
  recipientPhone: '08012345678', verificationToken: verify.body.verificationToken });
const wallet = await api('GET', '/user/wallet');
return { can, spc, clientData, verify, topUp, wallet: wallet.body };
"""


def test_airtime_paid_with_secure_payment_confirmation(spc_server, spc_browser):
    browser, server = spc_browser, spc_server
    phone = new_phone()
    token = api_signup(server, phone)
    server.fund(phone, 100_000)
    browser.get(f"{server.base_url}/index.html")

    registered = run(browser, REGISTER, token, {"pin": PIN})
    assert registered.get("status") == 201, registered
    assert registered["extensions"] == {"payment": {"isPayment": True}}

    paid = run(browser, PAY, token, {"amount": 50_000})
    assert "error" not in paid, paid
    assert paid["can"] is True
    client = paid["clientData"]
    assert client["type"] == "payment.get"
    payment = client["payment"]
    assert payment["rpId"] == "localhost" and payment["topOrigin"] == server.base_url
    assert payment["payeeName"] == "Countersign" and payment["payeeOrigin"] == PAYEE_ORIGIN
    assert payment["total"] == {"currency": "NGN", "value": "500.00"}
    assert payment["instrument"] == paid["spc"]["instrument"]
    assert paid["verify"]["status"] == 200, paid["verify"]
    assert paid["topUp"]["status"] == 200, paid["topUp"]
    assert paid["wallet"]["balance"] == 100_000 - 50_000


def test_a_total_the_server_did_not_issue_is_refused(spc_server, spc_browser):
    """The page passes another total to the browser: the browser shows and signs it, the server refuses it."""
    browser, server = spc_browser, spc_server
    phone = new_phone()
    token = api_signup(server, phone)
    server.fund(phone, 100_000)
    browser.get(f"{server.base_url}/index.html")
    assert run(browser, REGISTER, token, {"pin": PIN}).get("status") == 201

    allow_console(browser, r"/biometric/auth/verify .*401")
    browser.get(f"{server.base_url}/index.html")  # a fresh page: one show() without a gesture
    refused = run(browser, PAY, token, {"amount": 50_000, "value": "5.00"})
    assert "error" not in refused, refused
    assert refused["clientData"]["payment"]["total"]["value"] == "5.00"
    assert refused["verify"]["status"] == 401
    assert refused["verify"]["body"]["code"] == "payment_data_mismatch", refused["verify"]
    status, wallet = server.api("GET", "/user/wallet", token=token)
    assert status == 200 and wallet["balance"] == 100_000
