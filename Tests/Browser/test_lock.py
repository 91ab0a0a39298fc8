"""The two secrets and the soft lock: the account PIN (server-checked, signs in and approves payments)
and this device's unlock code (checked in the page only) are named apart wherever either is asked,
and the unlock code may not be the account PIN (its hash is on the device, open to offline guessing).
The soft lock also comes back on a browser session restored later, not only in a new tab."""

from selenium.webdriver.common.by import By

from conftest import (
    LOCAL_PIN, PIN, go, new_phone, page_text, screenshot, set_local_pin, sign_up, unlock_with_pin, wait_for, wait_text,
    wait_title,
)


def label_of(browser, input_id):
    return browser.find_element(By.CSS_SELECTOR, f"label[for='{input_id}']").text


def test_unlock_code_is_named_apart_and_never_the_account_pin(server, browser):
    sign_up(browser, server, new_phone(), name="Ngozi Two", local_pin=None)

    wait_title(browser, "Choose an unlock code for this device")
    assert "unlock code" in label_of(browser, "setup-pin").lower()
    text = page_text(browser)
    assert "account PIN" in text and "Only this device checks it" in text, text
    screenshot(browser, "18-unlock-code-setup")

    # The account PIN typed as the unlock code: refused, tied to the field, nothing stored.
    set_local_pin(browser, PIN)
    error = wait_text(browser, "#setup-pin-error", "That is your account PIN")
    field = browser.find_element(By.CSS_SELECTOR, "#setup-pin")
    assert field.get_attribute("aria-invalid") == "true"
    assert error.get_attribute("id") in field.get_attribute("aria-describedby")
    assert not browser.execute_script(
        "return Object.keys(localStorage).some((k) => k.startsWith('countersign.localPin.'))")

    set_local_pin(browser, LOCAL_PIN)
    wait_for(browser, "#balance")

    # The lock screen says which secret it wants.
    browser.execute_script("sessionStorage.clear()")
    browser.refresh()
    wait_title(browser, "Unlock Countersign")
    assert browser.execute_script("return document.activeElement === document.querySelector('main h1')")
    assert "Unlock code for this device" in label_of(browser, "lock-pin")
    wait_text(browser, "#lock-pin-form", "Not your account PIN")


def test_soft_lock_on_a_restored_session(server, browser):
    sign_up(browser, server, new_phone(), name="Restored Tab")

    # A reload of the open tab does not ask again.
    browser.refresh()
    wait_title(browser, "Hello")
    wait_for(browser, "#balance")

    # A browser that restores its last session brings sessionStorage back as it was when the
    # browser closed: an hour old here. The app locks again.
    browser.execute_script(
        "const mark = JSON.parse(sessionStorage.getItem('countersign.unlocked'));"
        "mark.seen -= 3600 * 1000;"
        "sessionStorage.setItem('countersign.unlocked', JSON.stringify(mark));")
    browser.refresh()
    wait_title(browser, "Unlock Countersign")
    assert not browser.find_elements(By.CSS_SELECTOR, "#balance")
    unlock_with_pin(browser)
    wait_for(browser, "#balance")
