"""Proven phone numbers in a browser: a signup code (and the simulator's code shown in test mode),
weak PINs refused, a code to sign in on a new browser, a code to bind a key on a device whose
session a code did not just open (the key then cools off), a forgotten PIN reset by code, and the
Security screen: remembered devices forgotten, a change of number."""

from selenium.webdriver.common.by import By

from conftest import (
    OTHER_PIN, PIN, WAIT, add_authenticator, allow_console, api_login, api_signup, click, enter_code, fetch_json, fill, go,
    naira, new_browser, new_phone, screenshot, set_local_pin, sign_in, sign_up, wait_for, wait_text, wait_title,
)
from selenium.webdriver.support.ui import WebDriverWait


def e164(phone):
    """How the server writes a Nigerian national number: 08012345678 → +2348012345678."""
    return "+234" + phone[1:]


def test_sign_up_proves_the_number_with_a_code(server, browser):
    allow_console(browser, r"/auth/signup .*(401|422)")  # the wrong code (401) and the weak PIN (422) below
    phone = new_phone()
    go(browser, server, "/signup")
    wait_title(browser, "Create your account")
    assert not wait_for(browser, "#signup-sms-send").get_attribute("hidden")
    assert not browser.find_element(By.CSS_SELECTOR, "#signup-name").is_displayed()  # the number comes first
    fill(browser, "#signup-phone", phone)
    before = server.messages(phone)
    click(browser, "#signup-sms-send")
    code = server.new_code(phone, before)
    wait_text(browser, "#signup-sms-sent", phone)
    # Test mode: the page shows what the simulator "sent", so the app works without a phone.
    wait_text(browser, "#signup-sms-sim", "Test mode")
    wait_text(browser, "#signup-sms-sim-code", code)
    assert "Resend code in" in wait_for(browser, "#signup-sms-resend").text
    assert not browser.find_element(By.CSS_SELECTOR, "#signup-sms-resend").is_enabled()

    # A wrong code is refused on the code field.
    wrong = f"{(int(code) + 1) % 1000000:06d}"
    fill(browser, "#signup-sms-code", wrong)
    fill(browser, "#signup-name", "Ada Obi")
    fill(browser, "#signup-pin", PIN)
    fill(browser, "#signup-pin2", PIN)
    click(browser, "#signup-submit")
    wait_text(browser, "#signup-sms-code-error", "not the code")
    assert browser.find_element(By.CSS_SELECTOR, "#signup-sms-code").get_attribute("aria-invalid") == "true"
    screenshot(browser, "40-sign-up-wrong-code")

    # A weak PIN is refused on the PIN field.
    fill(browser, "#signup-sms-code", code)
    fill(browser, "#signup-pin", "1234")
    fill(browser, "#signup-pin2", "1234")
    click(browser, "#signup-submit")
    wait_text(browser, "#signup-pin-error", "Choose another PIN")
    screenshot(browser, "41-sign-up-weak-pin")

    fill(browser, "#signup-pin", PIN)
    fill(browser, "#signup-pin2", PIN)
    click(browser, "#signup-submit")
    set_local_pin(browser)
    wait_text(browser, "#balance", naira(0))
    profile = fetch_json(browser, "GET", "/user/profile")["body"]
    assert profile["phone"] == e164(phone)
    assert fetch_json(browser, "GET", "/account/security")["body"]["phoneVerified"] is True


def test_a_new_browser_signs_in_with_a_code(server, browser):
    phone = new_phone()
    sign_up(browser, server, phone)
    other = new_browser()
    try:
        allow_console(other, r"/auth/login .*401")
        go(other, server, "/signin")
        fill(other, "#signin-phone", phone)
        fill(other, "#signin-pin", PIN)
        click(other, "#signin-submit")
        wait_text(other, "#signin-form .notice", "new to your account")
        wait_text(other, "#signin-sms-intro", "has not signed in")
        enter_code(other, server, "signin-sms", phone)
        screenshot(other, "42-sign-in-code")
        click(other, "#signin-submit")
        set_local_pin(other)
        wait_text(other, "#balance", "₦")

        # The first browser is known: phone and PIN alone.
        click(browser, "#signout")
        wait_title(browser, "Sign in")
        assert sign_in(browser, server, phone) is False
        wait_title(browser, "Hello, Ada")

        # Security lists both browsers; forgetting the other one ends its session.
        go(browser, server, "/security")
        wait_title(browser, "Security")
        wait_for(browser, "#devices li.device:nth-child(2)")
        rows = browser.find_elements(By.CSS_SELECTOR, "#devices li.device")
        mine = [r for r in rows if "This device" in r.text]
        theirs = [r for r in rows if "This device" not in r.text]
        assert len(mine) == 1 and len(theirs) == 1
        device_id = theirs[0].get_attribute("data-id")
        theirs[0].find_element(By.CSS_SELECTOR, ".forget").click()
        click(browser, f"#devices li[data-id='{device_id}'] .confirm-forget")
        wait_text(browser, "#devices-h + .notice", "forgotten")
        assert not browser.find_elements(By.CSS_SELECTOR, f"#devices li[data-id='{device_id}']")
        assert fetch_json(other, "GET", "/user/wallet")["status"] == 401
        wait_for(browser, "#activity li[data-kind='device_forgotten']")
    finally:
        other.quit()


def test_binding_a_key_on_a_second_device_needs_a_code_and_cools_off(server, browser):
    phone = new_phone()
    api_signup(server, phone, name="Ada Obi")
    add_authenticator(browser)
    # A code signs this browser in; signed in again by PIN alone, the session is not one a code just
    # opened, so the PIN alone cannot bind a key.
    assert sign_in(browser, server, phone) is True
    set_local_pin(browser)
    wait_title(browser, "Hello, Ada")
    click(browser, "#signout")
    wait_title(browser, "Sign in")
    assert sign_in(browser, server, phone) is False
    wait_title(browser, "Hello, Ada")

    allow_console(browser, r"/biometric/register/options .*401")  # phone_code_required: the code step
    go(browser, server, "/keys")
    fill(browser, "#enrol-pin", PIN)
    click(browser, "#enrol-submit")
    wait_text(browser, "#enrol-sms-intro", "needs a code")
    enter_code(browser, server, "enrol-sms", e164(phone))
    screenshot(browser, "43-keys-bind-code")
    click(browser, "#enrol-submit")
    wait_text(browser, "#enrol-form .notice", "Passkey added")
    row = wait_for(browser, "#keys li .cooling")
    assert "New until" in row.text and naira(500000) in row.text
    wait_text(browser, "#keys-cooling", naira(500000))
    listed = fetch_json(browser, "GET", "/biometric/credentials")["body"]["credentials"]
    assert len(listed) == 1 and listed[0]["coolingOffUntil"]
    screenshot(browser, "44-keys-cooling-off")

    # The Security screen is linked from the keys and shows the device's cooling-off.
    click(browser, "#to-security")
    wait_title(browser, "Security")
    wait_text(browser, "#security-device-cooling", naira(500000))
    wait_for(browser, "#activity li[data-kind='key_bound']")


def test_forgot_pin_resets_it_with_a_code(server, browser):
    phone = new_phone()
    api_signup(server, phone, name="Ada Obi")
    go(browser, server, "/signin")
    click(browser, "#to-forgot-pin")
    wait_title(browser, "Reset your PIN")
    fill(browser, "#reset-phone", phone)
    enter_code(browser, server, "reset-sms", phone)
    wait_text(browser, "#reset-warning", "PIN payments wait")
    fill(browser, "#reset-pin", OTHER_PIN)
    fill(browser, "#reset-pin2", OTHER_PIN)
    click(browser, "#reset-submit")
    wait_title(browser, "Your PIN is reset")
    wait_text(browser, "#reset-cooling", "PIN payments wait until")
    screenshot(browser, "45-pin-reset")
    click(browser, "#reset-continue")
    set_local_pin(browser)
    wait_title(browser, "Hello, Ada")
    security = fetch_json(browser, "GET", "/account/security")["body"]
    assert security["pinCoolingOffUntil"], security
    # The new PIN is the PIN now (a code, since the reset forgot every device); the old one is not.
    assert api_login(server, phone, PIN, with_code=True)[0] == 401
    assert api_login(server, phone, OTHER_PIN, with_code=True)[0] == 200


def test_number_change_needs_codes_to_both_numbers(server, browser):
    phone = new_phone()
    sign_up(browser, server, phone)
    go(browser, server, "/security")
    wait_title(browser, "Security")
    wait_text(browser, "#security-phone", e164(phone))
    wait_text(browser, "#security-verified", "Yes")
    wait_for(browser, "#activity li[data-kind='signed_up']")
    screenshot(browser, "46-security")

    new = new_phone()
    fill(browser, "#change-phone", new)
    enter_code(browser, server, "change-new-sms", new)
    fill(browser, "#change-pin", PIN)
    enter_code(browser, server, "change-old-sms", e164(phone))
    click(browser, "#change-submit")
    wait_text(browser, "#change-form .notice", e164(new))
    wait_text(browser, "#security-phone", e164(new))
    wait_for(browser, "#activity li[data-kind='phone_changed']")
    assert fetch_json(browser, "GET", "/user/profile")["body"]["phone"] == e164(new)
    assert api_login(server, new, PIN, with_code=True)[0] == 200


def test_a_code_typed_before_the_send_settles_is_kept(server, browser):
    """The field for the code shows as soon as the server says it sent one, and the code can be typed
    while the step still asks the server whether it is in test mode (held here, as a slow network
    would): the step must not clear the field when that answer comes."""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const realFetch = window.fetch;
        window.fetch = (url, init) => realFetch(url, init).then((response) =>
          new URL(String(url), location.href).pathname === '/health'
            ? new Promise((resolve) => { window.codeAnswerHeld = true; setTimeout(() => resolve(response), 1500); })
            : response);
    """})
    phone = new_phone()
    go(browser, server, "/signup")
    fill(browser, "#signup-phone", phone)
    before = server.messages(phone)
    click(browser, "#signup-sms-send")
    code = server.new_code(phone, before)
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return window.codeAnswerHeld === true"))
    fill(browser, "#signup-sms-code", code)
    # The answer arrives: the send button is no longer busy, and the step has handled it.
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.ID, "signup-sms-send").get_attribute("aria-busy") is None)
    wait_text(browser, "#signup-sms", "We sent")
    assert browser.find_element(By.ID, "signup-sms-code").get_attribute("value") == code
