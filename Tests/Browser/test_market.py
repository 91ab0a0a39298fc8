"""The marketplace in the browser : a seller lists, a buyer bids or buys now and pays on the
payment screen, through the payment simulator's hosted page (3-D Secure, iDEAL, Bancontact) and back.

The seller has a browser of their own (their phone), made like the `browser` fixture's and checked
for console errors the same way.
"""

import re
import sqlite3
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import (
    WAIT, _chrome, allow_console, console_errors, fetch_json, fill, go, new_phone, page_text, screenshot,
    sign_up, wait_for, wait_text, wait_title, euro, PHONE, set_viewport, add_authenticator, enrol_passkey, wallet,
    wait_error, PIN,
)

CARD_3DS = "4000 0027 6000 3184"
CARD_OK = "4242 4242 4242 4242"
CARD_DECLINED = "4000 0000 0000 0002"
CARD_REFUND_PENDING = "4000 0000 0000 5126"  # pays; its refunds wait for the simulator's controls


def allow_market_probes(browser):
    """Answers the marketplace expects. A bid names its order once it has one, so a checkout never
    asks for an order that does not exist (no 404 in the console)."""
    # Before sign-up the shell asks who is signed in.
    allow_console(browser, r"/user/profile - .* 401")


@pytest.fixture
def seller(browser):
    """The seller's own browser, beside the buyer's `browser`."""
    driver = _chrome()
    driver.set_window_size(390, 844)
    driver.allowed_console = []
    driver.set_script_timeout(WAIT)
    allow_market_probes(driver)
    allow_market_probes(browser)
    yield driver
    try:
        errors = console_errors(driver)
        assert not errors, "seller's browser console errors:\n" + "\n".join(e["message"] for e in errors)
    finally:
        driver.quit()


# --- steps ------------------------------------------------------------------------------------------


def list_product(driver, server, title="Oak chair", price="100", shipping=True):
    """Lists a product in EUR from the Sell screen (pickup, and PostNL standard when `shipping`); its id."""
    go(driver, server, "/market/sell")
    fill(driver, "#sell-title", title)
    fill(driver, "#sell-price", price)
    box = wait_for(driver, "#sell-postnl_standard", visible=False)
    if box.is_selected() != shipping:
        click_label(driver, "sell-postnl_standard")
    screenshot(driver, "market-sell")
    press(driver, "#sell-submit")
    wait_title(driver, title)
    match = re.search(r"/market/products/([^/?]+)$", driver.current_url)
    assert match, driver.current_url
    assert wait_for(driver, "#product-status").text == "For sale"
    return match.group(1)


def press(driver, css):
    """Clicks an element once it can be clicked, scrolled to the middle (the header is sticky)."""
    element = wait_for(driver, css)
    WebDriverWait(driver, WAIT).until(lambda d: element.is_enabled())
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    return element


def click_label(driver, input_id):
    """Chooses a radio or checkbox the way a person does: by its label."""
    WebDriverWait(driver, WAIT).until(lambda d: wait_for(d, f"#{input_id}", visible=False).is_enabled())
    press(driver, f"label[for='{input_id}']")


def buy_now(driver, server, product_id):
    go(driver, server, f"/market/products/{product_id}")
    press(driver, "#buy-now")
    wait_title(driver, "Payment")
    wait_for(driver, "#checkout-pay")


def total(driver, expected):
    """Waits for the server's total of the current choices (minor units) and returns the screen's text."""
    try:
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.CSS_SELECTOR, ".market-totals").get_attribute("aria-busy") == "false"
            and d.find_elements(By.CSS_SELECTOR, ".market-totals [data-total]")
            and d.find_element(By.CSS_SELECTOR, ".market-totals [data-total]").get_attribute("data-total") == str(expected)
        )
    except Exception:
        raise AssertionError(f"total never {expected}; page says:\n{page_text(driver)}") from None
    return driver.find_element(By.CSS_SELECTOR, ".market-totals").text


def add_address(driver):
    press(driver, "#add-address")
    fill(driver, "#address-name", "Bea de Vries")
    fill(driver, "#address-line1", "Keizersgracht 1")
    fill(driver, "#address-postal-code", "1015 CJ")
    fill(driver, "#address-city", "Amsterdam")
    press(driver, "#address-save")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=address]:checked"))


def add_card(driver, number):
    press(driver, "#add-card")
    fill(driver, "#card-number", number)
    fill(driver, "#card-exp-month", "12")
    fill(driver, "#card-exp-year", "2034")
    press(driver, "#card-save")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=card]:checked"))
    assert driver.find_element(By.ID, "method-card").is_selected()


def pay_until_simulator(driver, amount_text, method_text):
    """Pay → the simulator's hosted page, which names the amount and the method."""
    press(driver, "#checkout-pay")
    WebDriverWait(driver, WAIT).until(lambda d: "/sim/pay/" in d.current_url)
    body = driver.find_element(By.TAG_NAME, "body").text
    assert f"Paying {amount_text} EUR by {method_text}" in body, body


def press_simulator(driver, label):
    buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "form button") if b.text == label]
    assert buttons, driver.find_element(By.TAG_NAME, "body").text
    buttons[0].click()


def confirmed(driver):
    """The payment screen's confirmation after the polls; returns the order id."""
    wait_title(driver, "Payment confirmed", timeout=WAIT + 10)
    return wait_for(driver, ".market-confirmation code").text


def order_status(driver, order_id):
    answer = fetch_json(driver, "GET", f"/orders/{order_id}")
    assert answer["status"] == 200, answer
    return answer["body"]


# --- tests ------------------------------------------------------------------------------------------


def test_market_card_with_3d_secure(server, browser, seller):
    """Buy now, shipped to a new address, by a new card that needs 3-D Secure, on the simulator's page."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Oak chair", "100")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)

    # Seed step 1: no address yet, so only pickup can be chosen; no card yet, so no card payment.
    assert browser.find_element(By.ID, "delivery-pickup").is_selected()
    assert not browser.find_element(By.ID, "delivery-postnl_standard").is_enabled()
    assert not browser.find_element(By.ID, "method-card").is_enabled()
    assert not browser.find_element(By.ID, "checkout-pay").is_enabled()

    add_address(browser)
    click_label(browser, "delivery-postnl_standard")
    add_card(browser, CARD_3DS)
    # 100.00 + NL→NL standard 6.95 + card 2.9% of 106.95 = 3.10 (half-up) → 110.05
    text = total(browser, 11005)
    assert euro(695) in text and euro(310) in text and euro(11005) in text, text
    assert euro(11005) in browser.find_element(By.ID, "checkout-pay").text
    screenshot(browser, "market-checkout-card")

    pay_until_simulator(browser, "110.05", "card")
    screenshot(browser, "market-3ds-simulator")
    press_simulator(browser, "Authorize payment")
    order_id = confirmed(browser)
    screenshot(browser, "market-confirmed")

    order = order_status(browser, order_id)
    assert order["status"] == "PAID"
    assert order["paymentMethod"] == "card" and order["delivery"] == "postnl_standard"
    assert order["totals"]["total"] == 11005
    press(browser, "#checkout-order")
    wait_text(browser, "#order-status", "Paid")


def test_market_ideal_abandoned_and_resumed(server, browser, seller):
    """iDEAL: the payer walks away from the bank's page, finds their choices kept, then pays."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Reading lamp", "40")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)

    click_label(browser, "method-ideal")
    total(browser, 4199)  # 40.00 + pickup 0 + iDEAL 1.99
    pay_until_simulator(browser, "41.99", "iDEAL")
    browser.back()  # walks away from the bank's page without answering

    wait_text(browser, ".market-notice", "You left the payment page", timeout=WAIT + 5)
    assert browser.find_element(By.ID, "method-ideal").is_selected()
    assert browser.find_element(By.ID, "delivery-pickup").is_selected()
    pay_button = wait_for(browser, "#checkout-pay")
    assert "Continue paying" in pay_button.text and euro(4199) in pay_button.text, pay_button.text
    assert wait_for(browser, "#checkout-cancel-payment").is_displayed()
    screenshot(browser, "market-ideal-abandoned")

    # Pay resumes the same payment: the same intent, never a second one.
    pay_until_simulator(browser, "41.99", "iDEAL")
    press_simulator(browser, "Authorize payment")
    order_id = confirmed(browser)
    order = order_status(browser, order_id)
    assert order["status"] == "PAID" and order["paymentMethod"] == "ideal" and order["totals"]["total"] == 4199
    screenshot(browser, "market-ideal-paid")


def test_market_buy_now_abandoned_and_withdrawn(server, browser, seller):
    """Bancontact buy-now abandoned on the bank's page: the buyer withdraws and the product is free again."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Bike", "250")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)
    bid_id = re.search(r"/checkout/([^/?]+)$", browser.current_url).group(1)

    click_label(browser, "method-bancontact")
    total(browser, 25199)
    pay_until_simulator(browser, "251.99", "Bancontact")
    browser.back()
    wait_text(browser, ".market-notice", "You left the payment page", timeout=WAIT + 5)
    assert browser.find_element(By.ID, "method-bancontact").is_selected()

    press(browser, "#checkout-withdraw")
    wait_title(browser, "Buy now withdrawn")
    screenshot(browser, "market-buy-now-withdrawn")
    bid = fetch_json(browser, "GET", f"/bids/{bid_id}")["body"]
    assert bid["status"] == "CANCELED", bid
    order = fetch_json(browser, "GET", f"/bids/{bid_id}/order")["body"]
    assert order["status"] == "CANCELED", order

    press(browser, "#checkout-product")
    wait_text(browser, "#product-status", "For sale")
    assert wait_for(browser, "#buy-now").is_enabled()
    screenshot(browser, "market-product")
    # Back in the shop window; the seller sees it for sale too, the withdrawn buy-now counted.
    go(browser, server, "/market")
    wait_for(browser, f"#market-for-sale li[data-product='{product_id}']")
    go(seller, server, "/market/my-products")
    mine = wait_text(seller, f".market-product-card[data-product='{product_id}']", "1 ended")
    assert "For sale" in mine.text and "No bids yet" in mine.text, mine.text


def test_market_seller_accepts_buyer_pays_seller_ships(server, browser, seller):
    """An offer: the buyer finds the product in the shop window and bids; the seller accepts it from
    their products, the buyer pays it from their bids by card, the seller hands it over from their
    orders, the buyer confirms receipt and the seller's money becomes payable."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Desk", "120")
    buyer_phone = new_phone()
    sign_up(browser, server, buyer_phone, name="Bea Buyer")

    # The shop window: the desk is for sale; the buyer opens it from there.
    go(browser, server, "/market")
    item = wait_for(browser, f"#market-for-sale li[data-product='{product_id}']")
    assert "Desk" in item.text and euro(12000) in item.text, item.text
    screenshot(browser, "market-shop")
    # The tabs keep each label on one line at a phone's width.
    set_viewport(browser, *PHONE)
    wrapped = browser.execute_script(
        "return [...document.querySelectorAll('.market-tabs a')].filter((a) => {"
        " const r = document.createRange(); r.selectNodeContents(a);"
        " return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size > 1; }).map((a) => a.textContent)"
    )
    assert wrapped == [], f"tab labels on two lines at 390 px: {wrapped}"
    press(browser, f"#market-for-sale li[data-product='{product_id}'] a")
    wait_title(browser, "Desk")
    fill(browser, "#bid-amount", "95")
    press(browser, "#bid-submit")
    wait_text(browser, "#bid-status", "Waiting for the seller")
    bid_id = re.search(r"/market/bids/([^/?]+)$", browser.current_url).group(1)
    assert not browser.find_elements(By.CSS_SELECTOR, "input[readonly]"), "no link to share any more"
    screenshot(browser, "market-bid-placed")

    # The seller finds the bid under their products and accepts it there.
    go(seller, server, "/market/my-products")
    row = wait_for(seller, f"li[data-bid='{bid_id}']")
    assert euro(9500) in row.text and "Waiting for your answer" in row.text, row.text
    press(seller, f"#bid-accept-{bid_id}")
    wait_text(seller, ".market-announce", "You accepted")
    wait_text(seller, f"li[data-bid='{bid_id}']", "Accepted")
    assert not seller.find_elements(By.ID, f"bid-accept-{bid_id}")
    assert "Reserved for a buyer" in wait_for(seller, f".market-product-card[data-product='{product_id}']").text
    screenshot(seller, "market-seller-accepted")

    # The buyer finds the accepted bid under their bids and pays it: pickup, a card that pays at once.
    go(browser, server, "/market/my-bids")
    row = wait_text(browser, f"li[data-bid='{bid_id}']", "Accepted")
    assert wait_for(browser, f"#bid-pay-{bid_id}").text == "Go to payment", "no amount before there is an order"
    screenshot(browser, "market-my-bids")
    press(browser, f"#bid-pay-{bid_id}")
    wait_title(browser, "Payment")
    add_card(browser, CARD_OK)
    text = total(browser, 9776)  # 95.00 + pickup 0 + card 2.9% of 95.00 = 2.76 (2.755 half-up)
    assert euro(9500) in text and euro(276) in text, text
    press(browser, "#checkout-pay")
    order_id = confirmed(browser)
    press(browser, "#checkout-order")
    wait_text(browser, "#order-status", "Paid")
    # A pickup: the buyer sees who to collect it from and how to reach them.
    wait_text(browser, "#order-seller", "Sam Seller")
    assert wait_for(browser, "#order-seller a[href^='tel:']")

    # The seller finds the order to ship under Orders, selling, and hands it over from there.
    go(seller, server, "/market/orders")
    row = wait_for(seller, f"#market-selling li[data-order='{order_id}']")
    assert "Paid" in row.text and "Desk" in row.text, row.text
    assert "1 to ship" in wait_for(seller, "#orders-selling").text
    assert not seller.find_elements(By.CSS_SELECTOR, f"#market-buying li[data-order='{order_id}']")
    screenshot(seller, "market-seller-orders")
    # The order's page tells the seller who collects it and how to reach them.
    press(seller, f"#market-selling li[data-order='{order_id}'] a")
    wait_text(seller, "#order-buyer", "Bea Buyer")
    assert buyer_phone[-8:] in wait_for(seller, "#order-buyer a[href^='tel:']").text.replace(" ", "")
    go(seller, server, "/market/orders")
    # By keyboard: Enter on the button; focus then lands on what happened, not on the page's start.
    ship = wait_for(seller, f"#order-ship-{order_id}")
    seller.execute_script("arguments[0].focus()", ship)
    ship.send_keys(Keys.ENTER)
    announce = wait_text(seller, ".market-announce", "handed over")
    assert seller.switch_to.active_element == announce
    wait_text(seller, f"#market-selling li[data-order='{order_id}']", "Handed over")
    screenshot(seller, "market-seller-shipped")

    # What the buyer sees after: shipped; they confirm receipt.
    press(browser, "#order-refresh")
    wait_text(browser, "#order-status", "Handed over")
    screenshot(browser, "market-buyer-shipped")
    # Confirming receipt pays the seller: it asks first, naming the amount, and can be called off.
    press(browser, "#order-complete")
    question = wait_text(browser, "#order-complete-question", "€95.00")
    assert "cannot undo" in question.text, question.text
    screenshot(browser, "market-confirm-receipt")
    press(browser, "#order-complete-cancel")
    assert order_status(browser, order_id)["status"] == "SHIPPED", "going back confirms nothing"
    press(browser, "#order-complete")
    press(browser, "#order-complete-confirm")
    wait_text(browser, "#order-status", "Received")
    # The receipt: a reference, both sides, every amount; opened again from the orders list.
    receipt = wait_for(browser, "#order-receipt").text
    for part in (order_id, "Bea Buyer", "Sam Seller", "€95.00", "€2.76", "€97.76", "Ordered"):
        assert part in receipt, f"{part!r} not in the receipt:\n{receipt}"
    screenshot(browser, "market-receipt")
    assert order_status(browser, order_id)["status"] == "COMPLETED"
    # The buyer's orders: the desk under buying, received.
    go(browser, server, "/market/orders")
    wait_text(browser, f"#market-buying li[data-order='{order_id}']", "Received")
    assert not browser.find_elements(By.CSS_SELECTOR, f"#market-selling li[data-order='{order_id}']")
    screenshot(browser, "market-buyer-orders")
    press(browser, f"#market-buying li[data-order='{order_id}'] a")
    wait_text(browser, "#order-reference", order_id)
    go(browser, server, "/market/my-bids")
    wait_text(browser, f"li[data-bid='{bid_id}']", "Bought")
    proceeds = fetch_json(seller, "GET", "/user/proceeds")["body"]
    assert proceeds["payable"] == 9500 and proceeds["held"] == 0, proceeds
    # The seller's products: the desk (sold, its bid too) and the money payable.
    go(seller, server, "/market/my-products")
    wait_text(seller, ".market-mine", "Payable to you")
    text = seller.find_element(By.CSS_SELECTOR, ".market-mine").text
    assert "Desk" in text and euro(9500) in text and "Sold" in text, text
    screenshot(seller, "market-seller-home")


def test_market_payment_failing_then_paid_another_way(server, browser, seller):
    """Back at the return URL while the bank has not answered: the screen polls, three more tries, then
    says the payment is failing; the buyer stops it and pays by card instead."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Vase", "30")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)
    press(browser, "#method-ideal")
    total(browser, 3199)
    pay_until_simulator(browser, "31.99", "iDEAL")
    order_id = browser.find_element(By.CSS_SELECTOR, "body code").text
    # The return URL, as the bank app would open it, without the payer having answered.
    browser.get(f"{server.base_url}/?checkout={order_id}&payment_intent=pi&redirect_status=succeeded")
    wait_text(browser, ".market-status", "Checking the payment")
    wait_text(browser, ".market-notice", "Payment failing", timeout=WAIT + 10)
    assert order_status(browser, order_id)["status"] == "PAYMENT_PENDING"
    assert wait_for(browser, "#checkout-check-again").is_displayed()
    screenshot(browser, "market-payment-failing")

    press(browser, "#checkout-cancel-payment")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "method-card").is_enabled() or d.find_elements(By.ID, "add-card"))
    add_card(browser, CARD_OK)
    total(browser, 3087)  # 30.00 + pickup + card 2.9% of 30.00 = 0.87
    press(browser, "#checkout-pay")
    assert confirmed(browser) == order_id
    order = order_status(browser, order_id)
    assert order["status"] == "PAID" and order["paymentMethod"] == "card" and order["totals"]["total"] == 3087


def test_market_declined_and_failed_then_paid_by_keyboard(server, browser, seller):
    """A declined card and a failed 3-D Secure each bring the buyer back with the reason and their
    choices; then they pay by iDEAL using only the keyboard."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Mirror", "50")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)

    add_card(browser, CARD_DECLINED)
    total(browser, 5145)  # 50.00 + card 2.9% = 1.45
    press(browser, "#checkout-pay")
    alert = wait_text(browser, ".market-notice [role=alert]", "declined")
    assert "Nothing was taken" in alert.text
    assert browser.find_element(By.ID, "method-card").is_selected()
    screenshot(browser, "market-card-declined")
    bid_id = re.search(r"/checkout/([^/?]+)$", browser.current_url).group(1)
    order = fetch_json(browser, "GET", f"/bids/{bid_id}/order")["body"]
    assert order["status"] == "NEW", order

    add_card(browser, CARD_3DS)
    total(browser, 5145)
    pay_until_simulator(browser, "51.45", "card")
    press_simulator(browser, "Fail payment")
    wait_text(browser, ".market-notice [role=alert]", "did not go through", timeout=WAIT + 10)
    assert browser.find_element(By.ID, "method-card").is_selected()
    assert fetch_json(browser, "GET", f"/orders/{order['id']}")["body"]["status"] == "NEW"

    # Keyboard only: the arrow key moves the payment method from Card to iDEAL; Enter on Pay.
    card = browser.find_element(By.ID, "method-card")
    browser.execute_script("arguments[0].focus()", card)
    card.send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element.get_attribute("id") == "method-ideal"
    total(browser, 5199)
    pay = wait_for(browser, "#checkout-pay")
    WebDriverWait(browser, WAIT).until(lambda d: pay.is_enabled())
    browser.execute_script("arguments[0].focus()", pay)
    pay.send_keys(Keys.ENTER)
    WebDriverWait(browser, WAIT).until(lambda d: "/sim/pay/" in d.current_url)
    press_simulator(browser, "Authorize payment")
    assert confirmed(browser) == order["id"]
    assert order_status(browser, order["id"])["totals"]["total"] == 5199


def test_market_offer_above_asking_warned_then_declined(server, browser, seller):
    """An offer of 4× the asking price is held back with a warning that points to Buy now; a lower
    offer goes in; the seller declines it (after a second step) and the buyer sees it declined."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Stool", "25")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    go(browser, server, f"/market/products/{product_id}")
    fill(browser, "#bid-amount", "100")
    press(browser, "#bid-submit")
    warning = wait_text(browser, "#bid-warning", "more than the asking price")
    assert "Buy now" in warning.text and "€75.00" in warning.text, warning.text
    assert "anyway" in wait_for(browser, "#bid-submit").text
    assert "/market/products/" in browser.current_url, "no bid placed on the first press"
    assert fetch_json(browser, "GET", "/user/bids")["body"]["bids"] == []
    screenshot(browser, "market-bid-above-asking")
    fill(browser, "#bid-amount", "20")
    press(browser, "#bid-submit")
    wait_text(browser, "#bid-status", "Waiting for the seller")
    bid_id = re.search(r"/market/bids/([^/?]+)$", browser.current_url).group(1)

    go(seller, server, "/market/my-products")
    press(seller, f"#bid-decline-{bid_id}")
    wait_text(seller, f"#bid-decline-{bid_id}-question", "€20.00")
    press(seller, f"#bid-decline-{bid_id}-confirm")
    wait_text(seller, ".market-announce", "You declined")
    wait_text(seller, f".market-product-card[data-product='{product_id}']", "1 ended")

    press(browser, "#bid-refresh")
    wait_text(browser, "#bid-status", "Declined by the seller")
    assert "declined" in wait_for(browser, "#bid-why").text
    assert not browser.find_elements(By.ID, "bid-withdraw")
    screenshot(browser, "market-bid-declined")


def test_market_seller_sees_where_to_ship(server, browser, seller):
    """A shipped order: only the chosen payment method looks chosen; once paid, the seller sees the
    buyer's name and address on the order and in the list; the buyer's order names the seller."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Vase", "30")
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)
    add_address(browser)
    click_label(browser, "delivery-postnl_standard")
    add_card(browser, CARD_OK)
    click_label(browser, "method-ideal")
    total(browser, 3894)  # 30.00 + 6.95 + iDEAL 1.99
    chosen = browser.execute_script(
        "return [...document.querySelectorAll('.market-option')]"
        ".filter((o) => o.closest('fieldset.card').querySelector('#method-ideal') && o.querySelector('input:checked'))"
        ".map((o) => o.textContent)")
    assert chosen == ["iDEAL"], chosen
    click_label(browser, "method-card")
    total(browser, 3802)  # 30.00 + 6.95 + card 2.9% of 36.95 = 1.07 (1.07155)
    screenshot(browser, "market-checkout-method")
    press(browser, "#checkout-pay")
    order_id = confirmed(browser)

    go(seller, server, f"/market/orders/{order_id}")
    wait_text(seller, "#order-buyer", "Bea Buyer")
    address = wait_for(seller, "#order-address").text
    assert "Keizersgracht 1" in address and "1015 CJ Amsterdam" in address and "Bea de Vries" in address, address
    assert not seller.find_elements(By.CSS_SELECTOR, "#order-buyer a"), "no phone number for a parcel"
    assert "send it to the address above" in page_text(seller)
    screenshot(seller, "market-seller-ship-to")
    go(seller, server, "/market/orders")
    wait_text(seller, f"#market-selling li[data-order='{order_id}']", "For Bea Buyer, Amsterdam")

    press(browser, "#checkout-order")
    wait_text(browser, "#order-seller", "Sam Seller")
    assert "Keizersgracht 1" in wait_for(browser, "#order-address").text


def test_market_seller_refunds_and_buyer_sees_it(server, browser, seller):
    """The seller refunds part of a paid order with a reason, after a confirmation naming the amount
    (more than the order has is refused at the field); the buyer sees how much, why, and that it went
    back, and has no refund form of their own."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Lamp", "30", shipping=False)
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)
    add_card(browser, CARD_OK)
    total(browser, 3087)  # 30.00 + card 2.9% (0.87)
    press(browser, "#checkout-pay")
    order_id = confirmed(browser)

    go(seller, server, f"/market/orders/{order_id}")
    wait_for(seller, "#refund-form")
    fill(seller, "#refund-amount", "40")
    fill(seller, "#refund-reason", "The shade is cracked")
    press(seller, "#refund-submit")
    wait_text(seller, "#refund-amount-error", f"At most {euro(3000)}")
    assert not seller.find_elements(By.CSS_SELECTOR, "#refund-confirm"), "nothing is asked for an amount refused"
    fill(seller, "#refund-amount", "12.50")
    press(seller, "#refund-submit")
    wait_text(seller, "#refund-confirm", euro(1250))
    screenshot(seller, "market-refund-confirm")
    press(seller, "#refund-confirm-yes")
    wait_text(seller, "#order-refunds", "Returned to the buyer")
    assert f"up to {euro(1750)} more" in wait_for(seller, "#order-refundable").text

    go(browser, server, f"/market/orders/{order_id}")
    refunds = wait_text(browser, "#order-refunds", "The shade is cracked").text
    assert euro(1250) in refunds and "Returned to the buyer" in refunds, refunds
    assert not browser.find_elements(By.CSS_SELECTOR, "#refund-form"), "only the seller refunds"
    screenshot(browser, "market-buyer-sees-refund")
    assert order_status(browser, order_id)["refunded"] == 1250
    go(browser, server, "/market/orders")
    wait_text(browser, f"#market-buying li[data-order='{order_id}']", f"{euro(1250)} refunded")


def test_market_refund_the_provider_fails_is_shown_failed_and_nothing_moves(server, browser, seller):
    """A refund the provider keeps pending, then fails: both sides see it being returned, then not
    returned with the provider's reason; the order's refundable amount is whole again."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Vase", "40", shipping=False)
    sign_up(browser, server, new_phone(), name="Bea Buyer")
    buy_now(browser, server, product_id)
    add_card(browser, CARD_REFUND_PENDING)
    total(browser, 4116)  # 40.00 + card 2.9% (1.16)
    press(browser, "#checkout-pay")
    order_id = confirmed(browser)

    go(seller, server, f"/market/orders/{order_id}")
    fill(seller, "#refund-amount", "10")
    fill(seller, "#refund-reason", "Chipped rim")
    press(seller, "#refund-submit")
    press(seller, "#refund-confirm-yes")
    wait_text(seller, "#order-refunds", "Being returned")
    assert f"up to {euro(3000)} more" in wait_for(seller, "#order-refundable").text

    # The provider gives up: the simulator's control, as its webhook would.
    with sqlite3.connect(Path(server.data_dir) / "countersign.sqlite") as db:
        (provider_id,) = db.execute(
            "SELECT provider_refund_id FROM order_refunds WHERE order_id = ?", (order_id,)).fetchone()
    failed = fetch_json(seller, "POST", f"/sim/refunds/{provider_id}/fail")
    assert failed["status"] == 200 and failed["body"]["status"] == "failed", failed

    press(seller, "#order-refresh")
    wait_text(seller, "#order-refunds", "Not returned")
    wait_text(seller, "#order-refundable", f"up to {euro(4000)}")
    go(browser, server, f"/market/orders/{order_id}")
    refunds = wait_text(browser, "#order-refunds", "Not returned").text
    assert "Chipped rim" in refunds and euro(1000) in refunds, refunds
    screenshot(browser, "market-buyer-sees-failed-refund")
    assert order_status(browser, order_id)["refunded"] == 0

def test_market_paid_from_the_euro_wallet_with_the_passkey(server, browser, seller):
    """Buy now, paid from the EUR wallet: the method shows what the wallet holds, the passkey signs the
    order's total and seller, and the wallet and the order show the payment at once (no provider page)."""
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Oak chair", "100", shipping=False)
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone, name="Bea Buyer")
    server.fund(phone, 12_500, currency="EUR")
    enrol_passkey(browser, server)
    buy_now(browser, server, product_id)

    label = wait_for(browser, "label[for='method-wallet']")
    assert label.text == f"Wallet ({euro(12_500)})", label.text
    click_label(browser, "method-wallet")
    # The wallet has no payment fee: the total is the price.
    text = total(browser, 10_000)
    assert euro(10_000) in browser.find_element(By.ID, "checkout-pay").text, text
    screenshot(browser, "market-checkout-wallet")

    press(browser, "#checkout-pay")
    order_id = confirmed(browser)
    order = order_status(browser, order_id)
    assert order["status"] == "PAID" and order["paymentMethod"] == "wallet", order
    euros = [w for w in wallet(browser)["wallets"] if w["currency"] == "EUR"]
    assert euros and euros[0]["balance"] == 2_500, euros


def test_market_wallet_order_by_pin_without_a_passkey(server, browser, seller):
    """A buyer with no passkey pays a small order from the EUR wallet: the screen offers the account
    PIN, says so when it is wrong (nothing taken), pays with the right one, and the dashboard's history
    names the seller and the product."""
    # The options' 422 (no passkey) and the wrong PIN's 401 are answers the screen expects.
    allow_console(browser, r"/pay/options - .*status of 422|/pay - .*status of 401")
    sign_up(seller, server, new_phone(), name="Sam Seller")
    product_id = list_product(seller, server, "Desk lamp", "25", shipping=False)
    phone = new_phone()
    sign_up(browser, server, phone, name="Bea Buyer")
    server.fund(phone, 10_000, currency="EUR")
    buy_now(browser, server, product_id)
    click_label(browser, "method-wallet")
    total(browser, 2_500)

    press(browser, "#checkout-pay")
    wait_text(browser, "#wallet-pin-needed", "no passkey")
    fill(browser, "#wallet-pin", "1111")
    press(browser, "#wallet-pay-pin")
    wait_error(browser, "#wallet-pin-needed", "authorization_failed")
    euros = [w for w in wallet(browser)["wallets"] if w["currency"] == "EUR"]
    assert euros[0]["balance"] == 10_000, euros
    screenshot(browser, "market-checkout-wallet-pin")

    fill(browser, "#wallet-pin", PIN)
    press(browser, "#wallet-pay-pin")
    order_id = confirmed(browser)
    assert order_status(browser, order_id)["status"] == "PAID"
    euros = [w for w in wallet(browser)["wallets"] if w["currency"] == "EUR"]
    assert euros[0]["balance"] == 7_500, euros

    go(browser, server, "/")
    row = wait_for(browser, "li.tx[data-type='order_payment']")
    assert "Paid to Sam Seller" in row.text and "Desk lamp" in row.text, row.text
