"""Transfers in a browser: a transfer's live document, the fee quote with its countdown, accept
(passkey), decline, local authentication failing, and a quote that expires."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import (
    allow_console, api_signup, click, fill, funded_with_passkey, go, naira, new_phone, screenshot,
    set_user_verified, wait_for, wait_text, wait_title, wallet,
)

FUNDS = 500000  # ₦5,000.00
AMOUNT = 100000  # ₦1,000.00
# The default NGN schedule: ₦10.00 + 0.5%, so ₦10.00 and ₦5.00 on ₦1,000.00.
FEES = 1000 + 500


def payer_with_key(browser, server):
    return funded_with_passkey(browser, server, FUNDS)


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
    # A receipt: the reference, the time, both parties in full now that the money moved, the note.
    assert wait_for(browser, "#receipt-reference").text.startswith("tr")
    assert "Bola Ade" in wait_for(browser, "#receipt-payee").text
    # The payee's number stays whole on a phone's width (it once broke as "…11840" / "8)").
    number = wait_for(browser, "#receipt-payee .phone")
    assert number.value_of_css_property("white-space") == "nowrap"
    assert browser.execute_script("return arguments[0].getClientRects().length", number) == 1, number.text
    assert wait_for(browser, "#receipt-note").text == "rent"
    assert wait_for(browser, "#receipt-time").text
    # The result stays until the user leaves it.
    assert not browser.find_elements(By.CSS_SELECTOR, "#redirect-note")
    click(browser, "#to-dashboard")
    wait_text(browser, "#balance", naira(FUNDS - AMOUNT - FEES))
    row = wait_for(browser, "#transactions li[data-type='transfer_out']")
    assert "Sent to Bola Ade" in row.text and "rent" in row.text, row.text
    # The history opens the receipt again.
    row.find_element(By.CSS_SELECTOR, "summary").click()
    opened = row.find_element(By.CSS_SELECTOR, ".receipt").text
    assert "Reference" in opened and "Total paid" in opened and "rent" in opened, opened
    # A refresh of the dashboard keeps it open.
    browser.execute_script("window.dispatchEvent(new Event('focus'))")
    WebDriverWait(browser, 10).until(EC.staleness_of(row))  # the list was redrawn
    wait_for(browser, "#transactions li[data-type='transfer_out'] details[open] .receipt")


def test_payee_sees_who_paid(server, browser):
    payer_with_key(browser, server)
    payee = new_phone()
    payee_token = api_signup(server, payee, name="Bola Ade")
    go(browser, server, "/send")
    fill(browser, "#send-phone", payee)
    fill(browser, "#send-amount", "1000")
    fill(browser, "#send-note", "Lunch on Friday")
    click(browser, "#send-submit")
    wait_title(browser, "Do you still want to send?")
    click(browser, "#transfer-accept")
    wait_title(browser, "Money sent")
    status, page = server.api("GET", "/user/transactions", token=payee_token)
    received = page["transactions"][0]
    assert status == 200 and received["type"] == "transfer_in"
    assert received["counterpartyName"] == "Ada Obi" and received["note"] == "Lunch on Friday", received


def test_refused_before_the_quote(server, browser):
    allow_console(browser, r"/transfers .*422")
    payer_with_key(browser, server)
    payee = new_phone()
    api_signup(server, payee)
    # More than the wallet holds: an error on the form, no quote, no failed transfer.
    go(browser, server, "/send")
    fill(browser, "#send-phone", payee)
    fill(browser, "#send-amount", "9999999")
    click(browser, "#send-submit")
    wait_text(browser, "#send-form [role='alert']", "does not hold enough")
    assert browser.switch_to.active_element.get_attribute("id") == "send-amount"
    # A mistyped number: the same, on the payee field.
    fill(browser, "#send-phone", "08099999999")
    fill(browser, "#send-amount", "10")
    click(browser, "#send-submit")
    wait_text(browser, "#send-form [role='alert']", "No Countersign wallet")
    assert browser.switch_to.active_element.get_attribute("id") == "send-phone"
    assert browser.current_url.endswith("/send"), browser.current_url  # still the form, no transfer


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
    assert wallet(browser)["balance"] == FUNDS
    # Start again keeps the payee and the amount.
    click(browser, "#send-again")
    assert wait_for(browser, "#send-phone").get_attribute("value").endswith(payee[1:])  # as the server wrote it (E.164)
