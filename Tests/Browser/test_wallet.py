"""The wallet in a browser: sign-up, device keys, soft lock, airtime by passkey and by PIN, and the
seed's error flows (no biometric, cancelled gesture, verification failed, locked)."""

import re

from selenium.webdriver.common.by import By

from conftest import (
    LOCAL_PIN, PIN, add_authenticator, funded_with_passkey, remove_authenticator, allow_console, click, credentials, enrol_passkey, fetch_json, fill, go,
    naira, new_phone, page_text, screenshot, set_user_verified, sign_up, unlock_with_pin, wait_for, wait_text,
    wait_title, wallet, error_reference, wait_error,
)

FUNDS = 500000  # ₦5,000.00


def buy_airtime(browser, server, amount="500", network="AIRTIME_MTN", recipient="08031234567"):
    """Fills the airtime form and presses Continue."""
    go(browser, server, "/airtime")
    fill(browser, "#airtime-amount", amount)
    browser.find_element(By.CSS_SELECTOR, f"#airtime-network option[value='{network}']").click()
    fill(browser, "#airtime-recipient", recipient)
    click(browser, "#airtime-continue")


def test_sign_up_and_enrol_passkey(server, browser):
    add_authenticator(browser)
    go(browser, server, "/signup")
    wait_title(browser, "Create your account")
    screenshot(browser, "01-sign-up")
    phone = new_phone()
    sign_up(browser, server, phone)
    assert wait_for(browser, "#balance").text == naira(0)

    credential_id = enrol_passkey(browser, server)
    row = wait_for(browser, f"#keys li[data-id='{credential_id}']")
    assert "This device" in row.text
    assert "ES256" in row.text
    # The authenticator holds one discoverable credential: the one the server registered.
    held = credentials(browser)
    assert len(held) == 1 and held[0].is_resident_credential
    listed = fetch_json(browser, "GET", "/biometric/credentials")
    assert [c["id"] for c in listed["body"]["credentials"]] == [credential_id]
    screenshot(browser, "02-keys-enrolled")


def test_soft_lock_unlocks_with_passkey_without_network(server, browser):
    add_authenticator(browser)
    sign_up(browser, server, new_phone())
    enrol_passkey(browser, server)
    go(browser, server, "/")
    wait_for(browser, "#balance")
    # A new tab session: the session cookie stays, the "unlocked" flag does not.
    browser.execute_script("sessionStorage.clear()")
    browser.refresh()
    wait_text(browser, "#balance", "₦")  # the dashboard, after the passkey gesture
    calls = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")
    assert "/user/profile" in calls and "/user/wallet" in calls
    # The gesture is checked in the page: no challenge fetched, nothing verified by the server.
    assert not [c for c in calls if c.startswith("/biometric/") or c.startswith("/auth/")], calls
    assert browser.execute_script("return sessionStorage.getItem('countersign.unlocked')")
    # The flag holds for the tab session: no prompt on reload even with the biometric failing.
    set_user_verified(browser, False)
    browser.refresh()
    wait_text(browser, "#balance", "₦")


def test_soft_lock_falls_back_to_local_pin(server, browser):
    add_authenticator(browser)
    sign_up(browser, server, new_phone())
    enrol_passkey(browser, server)
    # The local PIN is stored only as a salted PBKDF2 hash.
    stored = browser.execute_script(
        "return Object.entries(localStorage).filter(([k]) => k.startsWith('countersign.localPin.')).map(([, v]) => v)")
    assert len(stored) == 1 and LOCAL_PIN not in stored[0]
    record = __import__("json").loads(stored[0])
    assert record["iterations"] >= 210000 and record["salt"] and record["hash"]

    set_user_verified(browser, False)  # the biometric fails
    browser.execute_script("sessionStorage.clear()")
    go(browser, server, "/")
    browser.refresh()
    wait_title(browser, "Unlock Countersign")
    wait_text(browser, "main .error", "Use the unlock code")
    fill(browser, "#lock-pin", "9999")
    click(browser, "#lock-pin-submit")
    wait_text(browser, "main .error", "not right")
    screenshot(browser, "03-soft-lock-pin")
    unlock_with_pin(browser)
    wait_for(browser, "#balance")


def test_soft_lock_pin_without_authenticator(server, browser):
    sign_up(browser, server, new_phone())
    browser.execute_script("sessionStorage.clear()")
    browser.refresh()
    wait_title(browser, "Unlock Countersign")
    assert not browser.find_element(By.CSS_SELECTOR, "#lock-passkey").is_displayed()
    unlock_with_pin(browser)
    wait_for(browser, "#balance")


def test_airtime_by_passkey(server, browser):
    funded_with_passkey(browser, server, FUNDS)

    buy_airtime(browser, server, "500", "AIRTIME_MTN", "08031234567")
    wait_title(browser, "Confirm airtime")
    assert wait_for(browser, "#intent-amount").text == naira(50000)
    assert wait_for(browser, "#intent-network").text == "MTN"
    # In words, the technical view behind a disclosure.
    words = wait_for(browser, "#review-words").text
    assert words.startswith(f"Your passkey will sign: {naira(50000)} airtime for "), words
    assert words.endswith("8031234567 on MTN."), words
    assert not wait_for(browser, "#review-technical code", visible=False).is_displayed()
    screenshot(browser, "04-airtime-review")
    click(browser, "#airtime-confirm")
    wait_title(browser, "Airtime sent")
    assert wait_for(browser, "#verdict-balance").text == naira(FUNDS - 50000)
    assert wait_for(browser, "#verdict-cashback").text == naira(500)
    assert "authorized by passkey" in wait_for(browser, "#verdict-message").text
    # A receipt: the reference to quote, the time in the user's zone, both sides and every amount.
    reference = wait_for(browser, "#receipt-reference").text
    assert reference, "a reference"
    assert wait_for(browser, "#receipt-time").text
    shown = wait_for(browser, "#receipt").text
    for part in ("8031234567 on MTN", "Amount", naira(50000), "Cashback earned", "New balance"):
        assert part in shown, (part, shown)
    screenshot(browser, "05-airtime-sent")
    assert wallet(browser) == {
        "balance": FUNDS - 50000, "cashback": 500, "currency": "NGN",
        "wallets": [{"currency": "NGN", "balance": FUNDS - 50000, "cashback": 500},
                    {"currency": "EUR", "balance": 0, "cashback": 0}],
    }

    click(browser, "#to-dashboard")
    wait_text(browser, "#balance", naira(FUNDS - 50000))
    wait_text(browser, "#cashback", naira(500))
    first = wait_for(browser, "#transactions li")
    assert "MTN airtime" in first.text and "passkey" in first.text
    # The history opens the receipt again.
    first.find_element(By.CSS_SELECTOR, "summary").click()
    opened = first.find_element(By.CSS_SELECTOR, ".receipt").text
    assert "Reference" in opened and naira(50000) in opened, opened
    screenshot(browser, "06-dashboard")


def test_airtime_over_balance_is_refused_before_the_passkey(server, browser):
    allow_console(browser, r"/biometric/auth/options .*422")
    funded_with_passkey(browser, server, FUNDS)
    buy_airtime(browser, server, "10000")
    wait_text(browser, "#airtime-form .error", "too low")
    assert wait_for(browser, "h1").text == "Buy airtime"
    assert not browser.find_elements(By.CSS_SELECTOR, "#airtime-confirm")
    assert browser.switch_to.active_element.get_attribute("id") == "airtime-amount"


def test_airtime_over_balance_by_pin_is_refused_before_the_pin(server, browser):
    # Without a passkey, the options answer 422 no_registered_credential: the PIN may pay (within its allowance).
    allow_console(browser, r"/biometric/auth/options .*422")
    phone = new_phone()
    sign_up(browser, server, phone)  # no authenticator: the PIN would pay
    server.fund(phone, 10000)
    buy_airtime(browser, server, "500")
    wait_text(browser, "#airtime-form .error", "balance")
    assert "too low" in wait_for(browser, "#airtime-form .error").text
    assert not browser.find_elements(By.CSS_SELECTOR, "#airtime-pin")
    # Within the balance, the PIN is asked.
    fill(browser, "#airtime-amount", "100")
    click(browser, "#airtime-continue")
    wait_title(browser, "Pay with PIN")


def test_failed_airtime_reads_as_failed(server, browser):
    # Without a passkey, the options answer 422 no_registered_credential: the PIN may pay (within its allowance).
    allow_console(browser, r"/biometric/auth/options .*422")
    phone = new_phone()
    sign_up(browser, server, phone)  # no authenticator: the PIN pays
    server.fund(phone, FUNDS)
    buy_airtime(browser, server, "100", "AIRTIME_AIRTEL", "08031230000")  # the simulator refuses …0000
    wait_title(browser, "Pay with PIN")
    fill(browser, "#airtime-pin", PIN)
    click(browser, "#airtime-pay-pin")
    wait_title(browser, "Airtime not delivered")
    text = page_text(browser)
    assert "Airtel" in text and "airtel" not in text, text
    assert text.count("not charged") == 1, text
    click(browser, "#to-dashboard")
    row = wait_for(browser, "#transactions li[data-type='topup']")
    assert "Airtel airtime failed" in row.text and "nothing taken" in row.text, row.text
    assert "−" not in row.text, row.text


def test_empty_wallet_says_how_money_gets_in(server, browser):
    phone = new_phone()
    sign_up(browser, server, phone)
    box = wait_for(browser, "#add-money")
    assert "by card" in box.text and "iDEAL" in box.text and "transfer" in box.text, box.text
    assert wait_for(browser, "#my-number").text.endswith(phone[1:])
    assert wait_for(browser, "#share-number").is_displayed()
    assert "Fund your wallet" not in page_text(browser)
    server.fund(phone, 1000)
    browser.refresh()
    wait_text(browser, "#balance", naira(1000))
    assert not browser.find_element(By.CSS_SELECTOR, "#add-money").is_displayed()


def test_airtime_pin_fallback_without_authenticator(server, browser):
    # Without a passkey, the options answer 422 no_registered_credential: the PIN may pay (within its allowance).
    allow_console(browser, r"/biometric/auth/options .*422")
    allow_console(browser, r"/user/topup .*401")
    phone = new_phone()
    sign_up(browser, server, phone)  # no authenticator at all in this browser
    server.fund(phone, FUNDS)
    buy_airtime(browser, server, "1000", "AIRTIME_GLO", "08051234567")
    wait_title(browser, "Pay with PIN")
    wait_text(browser, "#pin-reason", "not available")
    fill(browser, "#airtime-pin", "9999")
    click(browser, "#airtime-pay-pin")
    box = wait_error(browser, "#airtime-pin-form", "authorization_failed", "Check your PIN")
    # The refusal's details show the request's reference: its trace id, which finds it in the server's log.
    reference = error_reference(box)
    assert re.fullmatch(r"[0-9a-f]{32}", reference), reference
    screenshot(browser, "07-airtime-pin")
    fill(browser, "#airtime-pin", PIN)
    click(browser, "#airtime-pay-pin")
    wait_title(browser, "Airtime sent")
    assert wait_for(browser, "#verdict-balance").text == naira(FUNDS - 100000)
    assert "authorized by PIN" in wait_for(browser, "#verdict-message").text


def test_airtime_cancelled_gesture_charges_nothing(server, browser):
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    server.fund(phone, FUNDS)
    enrol_passkey(browser, server)
    buy_airtime(browser, server, "750")
    wait_title(browser, "Confirm airtime")
    set_user_verified(browser, False)  # the user does not complete the biometric prompt
    click(browser, "#airtime-confirm")
    wait_title(browser, "Payment cancelled")
    assert "Nothing was charged" in wait_for(browser, "#verdict-message").text
    assert wait_for(browser, "#verdict-balance").text == naira(FUNDS)
    screenshot(browser, "08-airtime-cancelled")
    assert wallet(browser)["balance"] == FUNDS
    click(browser, "#airtime-back")
    wait_title(browser, "Buy airtime")
    assert browser.find_element(By.CSS_SELECTOR, "#airtime-amount").get_attribute("value") == "750"


def test_airtime_verification_failed_shows_retry(server, browser):
    # The assertion goes with the payment: the top-up is what answers 401.
    allow_console(browser, r"/user/topup .*401")
    allow_console(browser, r"/biometric/auth/options .*422")
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    server.fund(phone, FUNDS)
    credential_id = enrol_passkey(browser, server)
    buy_airtime(browser, server, "500")
    wait_title(browser, "Confirm airtime")
    # The key is revoked (on another device, say) after the challenge was issued.
    assert fetch_json(browser, "DELETE", f"/biometric/credentials/{credential_id}", None)["status"] == 204
    click(browser, "#airtime-confirm")
    wait_title(browser, "Verification failed")
    # The code is for support, behind the details; the words come first.
    assert "passkey" in wait_for(browser, ".verdict .muted").text
    assert wait_for(browser, "#verdict-code", visible=False).get_attribute("textContent") == "unknown_credential"
    assert not browser.find_element(By.ID, "verdict-code").is_displayed()
    screenshot(browser, "09-airtime-verification-failed")
    assert wallet(browser)["balance"] == FUNDS
    # Retry: with no live key left the app offers the PIN.
    click(browser, "#airtime-retry")
    wait_title(browser, "Pay with PIN")
    wait_text(browser, "#pin-reason", "no device key")


def test_airtime_locked_shows_when_it_unlocks(server, browser):
    # Without a passkey, the options answer 422 no_registered_credential: the PIN may pay (within its allowance).
    allow_console(browser, r"/biometric/auth/options .*422")
    allow_console(browser, r"/user/topup .*(401|423)")
    phone = new_phone()
    sign_up(browser, server, phone)
    server.fund(phone, FUNDS)
    buy_airtime(browser, server, "500")
    wait_title(browser, "Pay with PIN")
    for attempt in range(5):
        fill(browser, "#airtime-pin", "9999")
        click(browser, "#airtime-pay-pin")
        if attempt < 4:
            wait_error(browser, "#airtime-pin-form", "authorization_failed")
            browser.execute_script("document.querySelector('#airtime-pin-form .error').remove()")
    wait_title(browser, "Payments locked")
    countdown = wait_for(browser, "#lock-countdown").text
    minutes = int(countdown.split(":")[0])
    assert 13 <= minutes <= 15, countdown
    assert wait_for(browser, "#unlock-at").text
    screenshot(browser, "10-airtime-locked")
    assert wallet(browser)["balance"] == FUNDS


def test_keys_list_and_revoke(server, browser):
    add_authenticator(browser)
    sign_up(browser, server, new_phone())
    credential_id = enrol_passkey(browser, server)
    row = wait_for(browser, f"#keys li[data-id='{credential_id}']")
    row.find_element(By.CSS_SELECTOR, ".revoke").click()
    wait_for(browser, f"#keys li[data-id='{credential_id}'] .confirm-revoke")
    screenshot(browser, "11-keys-revoke")
    click(browser, f"#keys li[data-id='{credential_id}'] .confirm-revoke")
    wait_text(browser, "main .notice", "Key revoked")
    wait_for(browser, "#no-keys")
    assert fetch_json(browser, "GET", "/biometric/credentials", None)["body"]["credentials"] == []
    assert browser.execute_script(
        "return Object.entries(localStorage).filter(([k]) => k.startsWith('countersign.credentials.')).map(([, v]) => v)"
    ) == ["[]"]


def test_passkey_sign_in_with_the_button(server, browser):
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    enrol_passkey(browser, server)
    # Take the passkey off the device while signing out, so that the sign-in page's autofill
    # request (conditional mediation) has nothing to offer, then put it back.
    held = credentials(browser)
    remove_authenticator(browser)
    click(browser, "#signout")
    wait_title(browser, "Sign in")
    assert not browser.find_element(By.CSS_SELECTOR, "#nav").is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, "#signin-phone").get_attribute("autocomplete") == "username webauthn"
    screenshot(browser, "16-sign-in")
    add_authenticator(browser)
    browser.add_credential(held[0])
    click(browser, "#signin-passkey")
    wait_title(browser, "Hello, Ada")  # this browser has its local PIN already: straight to the dashboard
    assert fetch_json(browser, "GET", "/user/profile", None)["body"]["phone"].endswith(phone[1:])


def test_passkey_sign_in_from_autofill(server, browser):
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone)
    enrol_passkey(browser, server)
    click(browser, "#signout")
    # The virtual authenticator answers the page's conditional request as a user picking the
    # passkey from the phone field's autofill would.
    wait_title(browser, "Hello, Ada")
    calls = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")
    assert "/auth/logout" in calls and "/auth/passkey/verify" in calls


def test_dashboard_pages_and_stays_current(server, browser):
    phone = new_phone()
    sign_up(browser, server, phone)
    for _ in range(12):
        server.fund(phone, 1000)
    browser.refresh()
    wait_text(browser, "#balance", naira(12000))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#transactions li")) == 10
    click(browser, "#more-transactions")
    wait_for(browser, "#transactions li:nth-child(12)")
    assert not browser.find_element(By.CSS_SELECTOR, "#more-transactions").is_displayed()
    # Money that arrives while the dashboard is open shows when the app is looked at again.
    server.fund(phone, 250000)
    browser.execute_script("window.dispatchEvent(new Event('focus'))")
    wait_text(browser, "#balance", naira(262000))
    assert "+" + naira(250000) in wait_for(browser, "#transactions li").text


def test_soft_lock_signs_out_after_five_wrong_pins(server, browser):
    allow_console(browser, r"/user/wallet .*401")  # the test's own check below
    sign_up(browser, server, new_phone())
    browser.execute_script("sessionStorage.clear()")
    browser.refresh()
    wait_title(browser, "Unlock Countersign")
    for attempt in range(1, 5):
        fill(browser, "#lock-pin", "1111")
        click(browser, "#lock-pin-submit")
        wait_text(browser, "main .error", f"{5 - attempt} tr")
    fill(browser, "#lock-pin", "1111")
    click(browser, "#lock-pin-submit")
    wait_title(browser, "Sign in")
    assert fetch_json(browser, "GET", "/user/wallet", None)["status"] == 401  # the session is over


def test_checkout_return_url_becomes_an_app_route(server, browser):
    # A payment provider sends the payer back with a query (a fragment cannot be used).
    browser.get(f"{server.base_url}/?checkout=ord_123&payment_intent=pi_456&redirect_status=succeeded")
    wait_title(browser, "Sign in")  # signed out here: sign in first, then back to the order
    assert browser.execute_script("return location.search") == ""
    hash_ = browser.execute_script("return decodeURIComponent(location.hash)")
    assert hash_ == "#/signin?next=/market/orders/ord_123/return?payment_intent=pi_456&redirect_status=succeeded", hash_
