"""The operator console in a browser: only operators see it; an operator finds a user, unlocks the
account, revokes a device key and funds the wallet, each with their own PIN; sees the headline
numbers, runs the ledger audit and reads the action log."""

import re

from selenium.webdriver.common.by import By

from conftest import (
    PIN, add_authenticator, error_reference, wait_error, allow_console, remove_authenticator, api_login, api_signup, click, enrol_passkey, fetch_json, fill, go, naira,
    new_phone, page_text, screenshot, set_viewport, set_local_pin, sign_in, sign_up, wait_for, wait_text, wait_title,
)

OPERATOR_PIN = "7305"  # not among the common PINs signup refuses


def operator_signs_in(browser, server):
    """An operator (flagged with the CLI) signed in in `browser`; returns their phone."""
    phone = new_phone()
    api_signup(server, phone, name="Olu Operator", pin=OPERATOR_PIN)
    server.grant_operator(phone)
    sign_in(browser, server, phone, pin=OPERATOR_PIN)
    set_local_pin(browser)
    wait_title(browser, "Hello, Olu")
    return phone


def test_console_is_for_operators_only(server, browser):
    allow_console(browser, r"/operator/.* 403")
    sign_up(browser, server, new_phone())
    operator_link = browser.find_element(By.CSS_SELECTOR, "#nav a[href='#/operator']")
    assert not operator_link.is_displayed()
    go(browser, server, "/operator")
    wait_error(browser, "main", "not_operator", "Only operators")
    assert not browser.find_elements(By.CSS_SELECTOR, "#users-count")


def test_operator_unlocks_revokes_and_funds(server, browser):
    allow_console(browser, r"/operator/users/.*/unlock .*401")
    # The user: a passkey on this browser, then locked out by five wrong PINs.
    add_authenticator(browser)
    phone = new_phone()
    sign_up(browser, server, phone, name="Bola Locked")
    credential_id = enrol_passkey(browser, server)
    # Off the device before signing out, so the sign-in page's passkey autofill offers nothing.
    remove_authenticator(browser)
    click(browser, "#signout")
    wait_title(browser, "Sign in")
    # From the test, a device new to the account: each login carries a code, so the PIN is judged.
    for _ in range(5):
        status, body = api_login(server, phone, "9999")
        assert status == 401 and body["error"]["code"] == "invalid_credentials", (status, body)
    status, body = api_login(server, phone, PIN)
    assert status == 423, (status, body)

    operator_signs_in(browser, server)
    link = wait_for(browser, "#nav a[href='#/operator']")
    # Seven tabs for an operator, still one row at 390 px, each wholly inside the screen.
    tabs = [t for t in browser.find_elements(By.CSS_SELECTOR, "#nav > *") if t.is_displayed()]
    assert len(tabs) == 7 and len({t.rect["y"] for t in tabs}) == 1, [(t.text, t.rect) for t in tabs]
    assert all(0 <= t.rect["x"] and t.rect["x"] + t.rect["width"] <= 391 for t in tabs), [t.rect for t in tabs]
    assert all(browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", t) for t in tabs)
    link.click()
    wait_title(browser, "Operator console")
    wait_text(browser, "#locked-count", "1")
    screenshot(browser, "30-operator-console")

    # Find the user by the start of their number as they gave it (national, grouped).
    fill(browser, "#search-phone", f"{phone[:4]} {phone[4:-3]}")
    click(browser, "#search-submit")
    row = wait_for(browser, "#search-results tr.found-user")
    assert "Bola Locked" in row.text and "Locked" in row.text
    row.find_element(By.CSS_SELECTOR, ".user-link").click()
    wait_title(browser, "Bola Locked")
    wait_text(browser, "#lock-status", "Locked")
    assert browser.find_elements(By.CSS_SELECTOR, f"#user-keys li[data-id='{credential_id}']")
    screenshot(browser, "31-operator-user")

    # No PIN: asked for in the page. A wrong PIN: refused by the server, still locked.
    click(browser, "#unlock")
    wait_text(browser, "#lock-card .error", "PIN")
    fill(browser, "#operator-pin", "1111")
    click(browser, "#unlock")
    box = wait_error(browser, "#lock-card", "step_up_failed", "account PIN is not right")
    assert "Type your account PIN again" in box.text
    assert re.fullmatch(r"[0-9a-f]{32}", error_reference(box))
    assert "Locked" in wait_for(browser, "#lock-status").text
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, "#unlock")
    wait_text(browser, "#lock-status", "Not locked")
    status, body = api_login(server, phone, PIN)
    assert status == 200, (status, body)

    # Revoke the user's key: asked first, as it cannot be undone.
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, f"#user-keys li[data-id='{credential_id}'] .revoke-key")
    wait_text(browser, "#revoke-confirm", "cannot be undone")
    click(browser, "#revoke-confirm-yes")
    wait_for(browser, "#no-user-keys")

    # The account is not locked any more: unlocking is no longer offered.
    assert not browser.find_element(By.CSS_SELECTOR, "#unlock").is_displayed()

    # Fund the wallet: asked first, saying what will happen and the amount; Cancel credits nothing.
    fill(browser, "#fund-amount", "1,500.00")
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, "#fund-submit")
    question = wait_text(browser, "#fund-confirm", naira(150000))
    assert "Bola Locked" in question.text and "funding account" in question.text
    assert naira(150000) in wait_for(browser, "#fund-confirm-yes").text
    screenshot(browser, "33-operator-fund-confirm")
    click(browser, "#fund-confirm-no")
    wait_text(browser, "main .notice", "Nothing was credited")
    assert not browser.find_elements(By.CSS_SELECTOR, "#fund-confirm")
    assert wait_for(browser, "#user-balance").text == naira(0)
    assert server.api("GET", "/user/wallet", token=body["sessionToken"])[1]["balance"] == 0
    click(browser, "#fund-submit")
    click(browser, "#fund-confirm-yes")
    wait_text(browser, "#user-balance", naira(150000))
    row = wait_for(browser, "#user-transactions tr[data-type='funding']")
    assert "Wallet funded" in row.text and "Operator" in row.text and "funding" not in row.text, row.text
    token = body["sessionToken"]
    assert server.api("GET", "/user/wallet", token=token)[1]["balance"] == 150000
    assert server.api("GET", "/biometric/credentials", token=token)[1]["credentials"] == []

    # Back on the console: every action is in the log, and the audit passes.
    go(browser, server, "/operator")
    wait_for(browser, "#actions tr[data-action='fund_wallet']")
    logged = [tr.get_attribute("data-action") for tr in browser.find_elements(By.CSS_SELECTOR, "#actions tr[data-action]")]
    assert logged[:3] == ["fund_wallet", "revoke_key", "unlock_account"], logged
    assert "grant_operator" in logged
    wait_text(browser, "#locked-count", "0")
    click(browser, "#run-audit")
    wait_text(browser, "#audit-result", "Passed")
    wait_for(browser, "#actions tr[data-action='run_audit']")
    screenshot(browser, "32-operator-audit")


def test_operator_cannot_act_on_own_account(server, browser):
    allow_console(browser, r"/operator/users/.*/unlock .*403")
    operator_signs_in(browser, server)
    me = fetch_json(browser, "GET", "/user/profile")["body"]
    assert me["isOperator"] is True
    go(browser, server, f"/operator/users/{me['userId']}")
    wait_title(browser, "Olu Operator")
    wait_text(browser, "main .notice", "your own account")
    assert not browser.find_element(By.CSS_SELECTOR, "#unlock").is_displayed()  # not locked: not offered
    assert not wait_for(browser, "#fund-submit").is_enabled()
    # The server refuses it too, whatever the page does.
    refused = fetch_json(browser, "POST", f"/operator/users/{me['userId']}/unlock", {"pin": OPERATOR_PIN})
    assert refused["status"] == 403 and refused["body"]["error"]["code"] == "own_account", refused
    assert "Olu Operator" in page_text(browser)


def test_console_uses_a_desktops_width(server, browser):
    """At 1280 px the console is wider than a phone column, shows tables, and words, not raw types."""
    phone = new_phone()
    token = api_signup(server, phone, name="Chidi Funded")
    server.fund(phone, 250000)
    status, body = server.api("GET", "/user/profile", token=token)
    assert status == 200, body
    operator_signs_in(browser, server)
    set_viewport(browser, 1280, 800)
    go(browser, server, f"/operator/users/{body['userId']}")
    wait_title(browser, "Chidi Funded")
    row = wait_for(browser, "#user-transactions tr[data-type='funding']")
    assert "Wallet funded" in row.text and "undefined" not in page_text(browser), page_text(browser)
    assert "funding" not in row.text and "transfer_in" not in page_text(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#user-transactions table th").is_displayed()
    width = browser.execute_script("return document.querySelector('main').getBoundingClientRect().width")
    assert width > 1000, width
    # Not locked: no unlock button, only the actions that apply.
    wait_text(browser, "#lock-status", "Not locked")
    assert not browser.find_element(By.CSS_SELECTOR, "#unlock").is_displayed()
    screenshot(browser, "34-operator-user-transactions")
    go(browser, server, f"/operator?phone={phone[:7]}")
    row = wait_for(browser, "#search-results tr.found-user")
    assert "Chidi Funded" in row.text


def test_search_tells_what_it_needs(server, browser):
    operator_signs_in(browser, server)
    go(browser, server, "/operator")
    wait_title(browser, "Operator console")
    fill(browser, "#search-phone", "080")
    click(browser, "#search-submit")
    message = wait_for(browser, "#search-phone-error")
    assert "first 6 digits" in message.text
    field = browser.find_element(By.CSS_SELECTOR, "#search-phone")
    assert field.get_attribute("aria-invalid") == "true"
    assert "search-phone-error" in field.get_attribute("aria-describedby")


def test_operator_reverses_a_funding_with_reason_pin_and_confirmation(server, browser):
    """A reversal asks for a reason and the PIN, then confirms naming the amount; after it the wallet
    is back where it was, both lines are in the history, and the funding cannot be reversed again."""
    phone = new_phone()
    token = api_signup(server, phone, name="Dayo Funded")
    server.fund(phone, 250000)
    status, body = server.api("GET", "/user/profile", token=token)
    assert status == 200, body
    operator_signs_in(browser, server)
    go(browser, server, f"/operator/users/{body['userId']}")
    wait_title(browser, "Dayo Funded")
    click(browser, "#user-transactions tr[data-type='funding'] .reverse-tx")
    wait_text(browser, "#reverse-reason-error", "Say why")
    fill(browser, "#reverse-reason", "Funded the wrong account")
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, "#user-transactions tr[data-type='funding'] .reverse-tx")
    wait_text(browser, "#reverse-confirm", naira(250000))
    screenshot(browser, "35-operator-reverse-confirm")
    click(browser, "#reverse-confirm-yes")
    wait_text(browser, "main .notice", "Reversed")
    wait_text(browser, "#user-balance", naira(0))
    row = wait_for(browser, "#user-transactions tr[data-type='reversal_out']")
    assert "money taken back" in row.text, row.text
    funding = wait_for(browser, "#user-transactions tr[data-type='funding']")
    assert "Reversed" in funding.text and not funding.find_elements(By.CSS_SELECTOR, ".reverse-tx"), funding.text
    assert server.api("GET", "/user/wallet", token=token)[1]["balance"] == 0
