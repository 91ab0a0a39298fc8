"""The app pays with Secure Payment Confirmation where the browser offers it: the passkey is
registered with the `payment` extension, and airtime and a transfer are confirmed in the browser's
own payment sheet (accepted here by WebDriver's SPC automation) instead of a bare WebAuthn prompt."""

import pytest

from conftest import (
    add_authenticator, api_signup, click, enable_spc_auto_accept, enrol_passkey, fill, go, naira, new_browser,
    new_phone, screenshot, sign_up, wait_for, wait_title, wallet,
)
from test_transfers import AMOUNT, FEES, start_transfer
from test_wallet import buy_airtime

FUNDS = 500000


@pytest.fixture(scope="module")
def spc_server(start_server):
    # SPC shows an https payee origin; this server's own is plain http.
    return start_server("--payee-origin", "https://shop.example")


@pytest.fixture
def browser():
    """The harness's browser with Secure Payment Confirmation switched on and auto-accepted."""
    driver = new_browser("--enable-features=SecurePaymentConfirmationBrowser")
    enable_spc_auto_accept(driver)
    yield driver
    driver.quit()


def test_airtime_and_transfer_with_secure_payment_confirmation(spc_server, browser):
    server = spc_server
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    server.fund(phone, FUNDS)
    enrol_passkey(browser, server)

    buy_airtime(browser, server, "500")
    wait_title(browser, "Confirm airtime")
    click(browser, "#airtime-confirm")
    wait_title(browser, "Airtime sent")
    assert "Secure Payment Confirmation" in wait_for(browser, "#verdict-message").text
    assert wallet(browser)["balance"] == FUNDS - 50000

    payee = new_phone()
    api_signup(server, payee, name="Bola Ade")
    start_transfer(browser, server, payee)
    click(browser, "#transfer-accept")
    wait_title(browser, "Money sent")
    assert "Secure Payment Confirmation" in wait_for(browser, "#verdict-via").text
    screenshot(browser, "17-transfer-sent-spc")
    assert wallet(browser)["balance"] == FUNDS - 50000 - AMOUNT - FEES
