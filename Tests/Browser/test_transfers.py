"""Seed 000 in a browser: a transfer's live document, the fee quote with its countdown, accept
(passkey), decline, local authentication failing, and a quote that expires."""

import time

from selenium.webdriver.common.by import By

from conftest import (
    add_authenticator, api_signup, click, enrol_passkey, fill, go, naira, new_phone, screenshot,
    set_user_verified, sign_up, wait_for, wait_text, wait_title, wallet,
)

FUNDS = 500000  # ₦5,000.00
AMOUNT = 100000  # ₦1,000.00
# The default NGN schedule: ₦10.00 + 0.5%, so ₦10.00 and ₦5.00 on ₦1,000.00.
FEES = 1000 + 500


def payer_with_key(browser, server):
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    server.fund(phone, FUNDS)
    enrol_passkey(browser, server)
    return phone


def start_transfer(browser, server, payee_phone, amount="1000"):
    go(browser, server, "/send")
    fill(browser, "#send-phone", payee_phone)
    fill(browser, "#send-amount", amount)
    fill(browser, "#send-note", "rent")
    click(browser, "#send-submit")
    wait_title(browser, "Do you still want to send?")


def test_transfer_accepted(server, browser):
    payer_with_key(browser, server)
    payee = new_phone()
    payee_token = api_signup(server, payee, name="Bola Ade")
    start_transfer(browser, server, payee)
    # Before the money moves the payer sees the payee's first name and initials only.
    payee_shown = wait_for(browser, "#quote-payee").text
    assert "Bola A." in payee_shown and "Bola Ade" not in payee_shown, payee_shown
    assert wait_for(browser, "#quote-amount").text == naira(AMOUNT)
    fees = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#quote dd.fee")]
    assert fees == [naira(1000), naira(500)]
    assert wait_for(browser, "#quote-fees").text == naira(FEES)
    assert wait_for(browser, "#quote-total").text == naira(AMOUNT + FEES)
    first = wait_for(browser, "#quote-countdown").text
    assert first.startswith("4:") or first.startswith("5:"), first
    time.sleep(1.2)
    assert wait_for(browser, "#quote-countdown").text != first  # it counts down
    current = browser.find_element(By.CSS_SELECTOR, "#timeline li[aria-current='step']").text
    assert current == "Approval"
    screenshot(browser, "12-transfer-quote")

    click(browser, "#transfer-accept")
    wait_title(browser, "Money sent")
    assert wait_for(browser, "#verdict-total").text == naira(AMOUNT + FEES)
    assert "Bola Ade" in wait_for(browser, "#verdict-message").text
    screenshot(browser, "13-transfer-sent")
    assert wallet(browser)["balance"] == FUNDS - AMOUNT - FEES
    status, payee_wallet = server.api("GET", "/user/wallet", token=payee_token)
    assert status == 200 and payee_wallet["balance"] == AMOUNT
    # Seed 000: the verdict returns to the dashboard by itself.
    wait_for(browser, "#balance", timeout=15)
    wait_text(browser, "#balance", naira(FUNDS - AMOUNT - FEES))
    assert "Money sent" in wait_for(browser, "#transactions li").text


def test_transfer_declined(server, browser):
    payer_with_key(browser, server)
    payee = new_phone()
    payee_token = api_signup(server, payee)
    start_transfer(browser, server, payee)
    click(browser, "#transfer-decline")
    wait_title(browser, "Transfer declined")
    assert "Nothing was sent" in wait_for(browser, "#verdict-message").text
    assert wait_for(browser, "#verdict").get_attribute("data-status") == "DECLINED"
    screenshot(browser, "14-transfer-declined")
    click(browser, "#stay")
    assert wallet(browser)["balance"] == FUNDS
    assert server.api("GET", "/user/wallet", token=payee_token)[1]["balance"] == 0


def test_transfer_local_authentication_failure_cancels(server, browser):
    payer_with_key(browser, server)
    payee = new_phone()
    api_signup(server, payee)
    start_transfer(browser, server, payee)
    set_user_verified(browser, False)
    click(browser, "#transfer-accept")
    wait_title(browser, "Transfer cancelled")
    assert "passkey check did not complete" in wait_for(browser, "#verdict-message").text
    assert wallet(browser)["balance"] == FUNDS


def test_quote_expired(start_server, browser):
    server = start_server("--quote-seconds", "30")  # the shortest the server allows
    payer_with_key(browser, server)
    payee = new_phone()
    api_signup(server, payee)
    start_transfer(browser, server, payee)
    assert wait_for(browser, "#quote-countdown").text.startswith("0:")
    wait_title(browser, "Quote expired", timeout=45)
    assert "expired before it was approved" in wait_for(browser, "#verdict-message").text
    assert wait_for(browser, "#verdict").get_attribute("data-status") == "EXPIRED"
    screenshot(browser, "15-transfer-quote-expired")
    click(browser, "#stay")
    assert wallet(browser)["balance"] == FUNDS
    # Start again keeps the payee and the amount.
    click(browser, "#send-again")
    assert wait_for(browser, "#send-phone").get_attribute("value").endswith(payee[1:])  # as the server wrote it (E.164)
