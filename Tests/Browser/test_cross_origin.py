"""A web team's own page on another origin, using countersign.js over CORS (`--cors-origin`), and a
page from an origin the server was not told about, which the browser keeps out."""

import functools
import http.server
import tempfile
import threading
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from conftest import allow_console, api_signup, free_port, new_phone, screenshot

SHOP_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shop</title><link rel="icon" href="data:,"><script type="module" src="shop.js"></script></head>
<body><h1>Shop</h1><p id="result">working…</p></body></html>
"""

# The shop's own script: it imports the client from the payment server and signs up, then reads
# the wallet and streams nothing; the session is the server's cookie, sent with credentials.
SHOP_JS = """
import { Countersign } from '%(module)s';
const out = document.getElementById('result');
try {
  const cs = new Countersign({ baseURL: '%(api)s' });
  // The number is proven by a code; in test mode the SMS simulator shows what it "sent".
  const phone = '%(phone)s';
  const { verificationId } = await cs.requestCode({ phone, purpose: 'signup' });
  let code = null;
  for (let i = 0; i < 100 && !code; i++) {
    const { messages } = await cs.simulatedMessages(phone);
    code = messages.map((m) => (/^\\d{6}/.exec(m.body) || [])[0]).find(Boolean) || null;
    if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await cs.signup({ verificationId, code, name: 'Shopper', pin: '4827' });
  const wallet = await cs.wallet();
  out.textContent = 'balance ' + wallet.balance;
  out.dataset.state = 'ok';
} catch (error) {
  out.textContent = String(error && (error.code || error.message || error));
  out.dataset.state = 'failed';
}
"""


@pytest.fixture
def shop():
    """Serves a directory over HTTP on a free loopback port; yields (port, directory)."""
    directory = Path(tempfile.mkdtemp(prefix="countersign-shop-"))
    port = free_port()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield port, directory
    httpd.shutdown()


WEB = Path(__file__).resolve().parents[2] / "Sources" / "CountersignServer" / "Resources" / "web"


def write_shop(directory, api, phone, bundled=False):
    """The shop's page; with `bundled`, countersign.js and its modules are a copy in the shop's own files."""
    (directory / "index.html").write_text(SHOP_HTML)
    module = "./countersign.js" if bundled else f"{api}/countersign.js"
    if bundled:
        (directory / "countersign.js").write_text((WEB / "countersign.js").read_text())
        (directory / "countersign").mkdir(exist_ok=True)
        for source in (WEB / "countersign").glob("*.js"):
            (directory / "countersign" / source.name).write_text(source.read_text())
    (directory / "shop.js").write_text(SHOP_JS % {"api": api, "phone": phone, "module": module})


def result(browser):
    WebDriverWait(browser, 15).until(lambda d: d.find_element("id", "result").get_attribute("data-state"))
    element = browser.find_element("id", "result")
    return element.get_attribute("data-state"), element.text


def test_a_configured_origin_signs_up_and_reads_the_wallet(browser, start_server, shop):
    port, directory = shop
    shop_origin = f"http://localhost:{port}"
    server = start_server("--cors-origin", shop_origin)
    write_shop(directory, server.base_url, new_phone())
    browser.get(f"{shop_origin}/index.html")
    state, text = result(browser)
    assert (state, text) == ("ok", "balance 0")
    screenshot(browser, "cross-origin-shop")


def test_an_origin_not_configured_is_kept_out(browser, start_server, shop):
    port, directory = shop
    server = start_server()  # no --cors-origin
    phone = new_phone()
    # The shop carries its own copy of the client, so its script runs and tries: the server
    # refuses the request for a signup code from this origin (403 origin_refused, nothing sent) and
    # the browser keeps the answer from the page (no Access-Control-Allow-Origin).
    write_shop(directory, server.base_url, phone, bundled=True)
    allow_console(browser, r"CORS|Access-Control-Allow-Origin|/auth/")
    browser.get(f"http://localhost:{port}/index.html")
    state, _ = result(browser)
    assert state == "failed"
    assert server.messages(phone) == [], "no code went to the number, so no account can be opened"
    api_signup(server, phone)  # the number is still free
