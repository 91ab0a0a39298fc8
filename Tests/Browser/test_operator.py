"""The operator console in a browser: only operators see it; an operator finds a user, unlocks the
account, revokes a device key and funds the wallet, each with their own PIN; sees the headline
numbers, runs the ledger audit and reads the action log."""

from selenium.webdriver.common.by import By

from conftest import (
    PIN, add_authenticator, allow_console, remove_authenticator, api_login, api_signup, click, enrol_passkey, fetch_json, fill, go, naira,
    new_phone, page_text, screenshot, set_local_pin, sign_in, sign_up, wait_for, wait_text, wait_title,
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
    wait_text(browser, "main .error", "not_operator")
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
    link.click()
    wait_title(browser, "Operator console")
    wait_text(browser, "#locked-count", "1")
    screenshot(browser, "30-operator-console")

    # Find the user by the start of their number (+234 and the national number without its 0).
    fill(browser, "#search-phone", "+234" + phone[1:-3])
    click(browser, "#search-submit")
    row = wait_for(browser, "#search-results li.found-user")
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
    wait_text(browser, "#lock-card .error", "step_up_failed")
    assert "Locked" in wait_for(browser, "#lock-status").text
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, "#unlock")
    wait_text(browser, "#lock-status", "Not locked")
    status, body = api_login(server, phone, PIN)
    assert status == 200, (status, body)

    # Revoke the user's key.
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, f"#user-keys li[data-id='{credential_id}'] .revoke-key")
    wait_for(browser, "#no-user-keys")

    # Fund the wallet: the balance and the transactions show it.
    fill(browser, "#fund-amount", "1,500.00")
    fill(browser, "#operator-pin", OPERATOR_PIN)
    click(browser, "#fund-submit")
    wait_text(browser, "#user-balance", naira(150000))
    wait_text(browser, "#user-transactions", "funding")
    assert "by operator" in wait_for(browser, "#user-transactions li").text
    token = body["sessionToken"]
    assert server.api("GET", "/user/wallet", token=token)[1]["balance"] == 150000
    assert server.api("GET", "/biometric/credentials", token=token)[1]["credentials"] == []

    # Back on the console: every action is in the log, and the audit passes.
    go(browser, server, "/operator")
    wait_for(browser, "#actions li[data-action='fund_wallet']")
    logged = [li.get_attribute("data-action") for li in browser.find_elements(By.CSS_SELECTOR, "#actions li")]
    assert logged[:3] == ["fund_wallet", "revoke_key", "unlock_account"], logged
    assert "grant_operator" in logged
    wait_text(browser, "#locked-count", "0")
    click(browser, "#run-audit")
    wait_text(browser, "#audit-result", "Passed")
    wait_for(browser, "#actions li[data-action='run_audit']")
    screenshot(browser, "32-operator-audit")


def test_operator_cannot_act_on_own_account(server, browser):
    allow_console(browser, r"/operator/users/.*/unlock .*403")
    operator_signs_in(browser, server)
    me = fetch_json(browser, "GET", "/user/profile")["body"]
    assert me["isOperator"] is True
    go(browser, server, f"/operator/users/{me['userId']}")
    wait_title(browser, "Olu Operator")
    wait_text(browser, "main .notice", "your own account")
    assert not wait_for(browser, "#unlock").is_enabled()
    assert not wait_for(browser, "#fund-submit").is_enabled()
    # The server refuses it too, whatever the page does.
    refused = fetch_json(browser, "POST", f"/operator/users/{me['userId']}/unlock", {"pin": OPERATOR_PIN})
    assert refused["status"] == 403 and refused["body"]["error"]["code"] == "own_account", refused
    assert "Olu Operator" in page_text(browser)
