"""Add money: a wallet funded by card and by iDEAL through the payment simulator, the result screen,
and each wallet's balance on the dashboard."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import (
    WAIT, click, euro, fetch_json, fill, go, naira, new_phone, screenshot, sign_up, wait_for, wait_text, wait_title,
    wallet,
)
from test_market import press_simulator


def start_funding(browser, server, amount, currency, method):
    go(browser, server, "/")
    click(browser, "#add-money-link")
    wait_title(browser, "Add money")
    Select(wait_for(browser, "#money-currency")).select_by_value(currency)
    Select(wait_for(browser, "#money-method")).select_by_value(method)
    fill(browser, "#money-amount", amount)


def test_add_money_by_card(server, browser):
    sign_up(browser, server, new_phone())
    saved = fetch_json(browser, "POST", "/payment-methods/cards",
                       {"number": "4242 4242 4242 4242", "expMonth": 12, "expYear": 2034})
    assert saved["status"] == 201, saved
    start_funding(browser, server, "50", "EUR", "card")
    assert wait_for(browser, "#money-card").is_displayed()
    screenshot(browser, "add-money-card")
    click(browser, "#money-submit")
    wait_title(browser, "Money added")
    assert euro(5000) in wait_for(browser, "#money-status").text
    screenshot(browser, "add-money-done")
    shown = wallet(browser)
    assert shown["balance"] == 0 and [w["balance"] for w in shown["wallets"]] == [0, 5000]
    click(browser, "#money-home")
    wait_text(browser, "#balance-EUR", euro(5000))
    assert wait_for(browser, "#balance").text == naira(0)
    wait_text(browser, "#transactions li[data-type='funding']", "Money added by card")


def test_add_money_by_ideal(server, browser):
    sign_up(browser, server, new_phone())
    start_funding(browser, server, "25.50", "EUR", "ideal")
    assert not wait_for(browser, "#money-card", visible=False).is_displayed()
    click(browser, "#money-submit")
    WebDriverWait(browser, WAIT).until(lambda d: "/sim/pay/" in d.current_url)
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "Paying 25.50 EUR by iDEAL" in body, body
    press_simulator(browser, "Authorize payment")
    wait_title(browser, "Money added", timeout=WAIT + 10)
    assert wait_for(browser, "#money-status").get_attribute("data-status") == "succeeded"
    assert [w["balance"] for w in wallet(browser)["wallets"]] == [0, 2550]
    # iDEAL is for euros: the naira wallet offers the card only.
    go(browser, server, "/add-money")
    Select(wait_for(browser, "#money-currency")).select_by_value("NGN")
    methods = [o.get_attribute("value") for o in Select(wait_for(browser, "#money-method")).options]
    assert methods == ["card"]
