"""Money within limits in a browser: the PIN alone pays only within its allowance (the passkey is
offered instead), and the Limits screen (see, lower at once, raise with the passkey after a delay)."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import (
    PIN, add_authenticator, allow_console, api_signup, click, enrol_passkey, fill, funded_with_passkey, go, naira, new_phone,
    page_text, screenshot, sign_up, wait_error, wait_for, wait_text, wait_title, wallet,
)
from test_wallet import buy_airtime

FUNDS = 10000000  # ₦100,000.00: over the PIN's ₦50,000 at once


def test_pin_beyond_its_allowance_offers_the_passkey(server, browser):
    allow_console(browser, r"/biometric/auth/options .*403")
    allow_console(browser, r"/biometric/auth/options .*422")
    phone = new_phone()
    sign_up(browser, server, phone)  # no authenticator, no passkey: only the PIN could pay
    server.fund(phone, FUNDS)
    buy_airtime(browser, server, "60000")
    # Told before any PIN is typed: the PIN alone may not pay this much.
    wait_title(browser, "Confirm with your passkey")
    assert not browser.find_elements(By.CSS_SELECTOR, "#airtime-pin")
    assert "needs your passkey" in wait_for(browser, "#verdict-message").text
    assert wait_for(browser, "#airtime-add-passkey").is_displayed()
    screenshot(browser, "airtime-passkey-needed")
    assert wallet(browser)["balance"] == FUNDS

    # Within it, the PIN pays.
    click(browser, "#airtime-back")
    wait_title(browser, "Buy airtime")
    fill(browser, "#airtime-amount", "500")
    click(browser, "#airtime-continue")
    wait_title(browser, "Pay with PIN")
    fill(browser, "#airtime-pin", PIN)
    click(browser, "#airtime-pay-pin")
    wait_title(browser, "Airtime sent")

    # With a passkey, the review offers it alone and says why the PIN is not offered.
    add_authenticator(browser)
    enrol_passkey(browser, server)
    buy_airtime(browser, server, "60000")
    wait_title(browser, "Confirm airtime")
    assert "cannot pay this amount" in wait_for(browser, "#pin-not-offered").text
    assert not browser.find_elements(By.CSS_SELECTOR, "#airtime-use-pin")
    click(browser, "#airtime-confirm")
    wait_title(browser, "Airtime sent")
    assert wallet(browser)["balance"] == FUNDS - 50000 - 6000000


def test_limits_screen_lowers_and_raises_with_the_passkey(server, browser):
    allow_console(browser, r"/biometric/auth/options .*422")
    funded_with_passkey(browser, server, FUNDS)
    go(browser, server, "/limits")
    wait_title(browser, "Limits")
    daily = wait_for(browser, "#limit-NGN-daily")
    assert naira(500000000) in daily.text, daily.text
    assert "24 hours" in wait_for(browser, "#limits-intro").text

    click(browser, "#limit-NGN-daily-change")
    fill(browser, "#limit-NGN-daily-amount", "1000")
    click(browser, "#limit-NGN-daily-save")
    wait_text(browser, "#limits-body .notice", "applies now")
    assert naira(100000) in wait_for(browser, "#limit-NGN-daily").text

    # Over the lowered limit: refused on the form, before the passkey is asked.
    buy_airtime(browser, server, "1500")
    wait_error(browser, "#airtime-form", "limit_exceeded", "over one of your spending limits")
    assert not browser.find_elements(By.CSS_SELECTOR, "#airtime-confirm")

    # A raise: the passkey confirms it, and it waits its delay, shown as pending.
    go(browser, server, "/limits")
    click(browser, "#limit-NGN-daily-change")
    fill(browser, "#limit-NGN-daily-amount", "2000")
    click(browser, "#limit-NGN-daily-save")
    wait_text(browser, "#limits-body .notice", "waiting period")
    pending = wait_for(browser, "#limit-NGN-daily-pending")
    assert naira(200000) in pending.text and "pending" in pending.text, pending.text
    assert naira(100000) in wait_for(browser, "#limit-NGN-daily").text
    screenshot(browser, "limits")
    assert "limit_exceeded" not in page_text(browser)


def test_operator_assigns_a_limits_tier(server, browser):
    from test_operator import OPERATOR_PIN, operator_signs_in

    phone = new_phone()
    token = api_signup(server, phone, name="Tari Tier")
    user_id = server.api("GET", "/user/profile", token=token)[1]["userId"]
    operator_signs_in(browser, server)
    go(browser, server, f"/operator/users/{user_id}")
    wait_title(browser, "Tari Tier")
    assert "In tier standard" in wait_for(browser, "#tier-now").text
    Select(wait_for(browser, "#tier-select")).select_by_value("tier1")
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, "#tier-submit")
    wait_text(browser, "main .notice", "Now in tier tier1")
    assert "In tier tier1" in wait_for(browser, "#tier-now").text
    screenshot(browser, "36-operator-tier")
    # The user's limits are the tier's now (₦50,000 a day), and the change is in the action log.
    limits = server.api("GET", "/user/limits", token=token)[1]
    naira_limits = next(c for c in limits["currencies"] if c["currency"] == "NGN")["limits"]
    assert limits["tier"] == "tier1"
    assert next(l for l in naira_limits if l["kind"] == "daily")["limit"] == 5000000
    go(browser, server, "/operator")
    wait_for(browser, "#actions tr[data-action='assign_tier']")
