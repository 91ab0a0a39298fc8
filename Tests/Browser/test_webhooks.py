"""The console's webhooks page: an operator adds an endpoint with their own PIN and sees its signing
secret once, finds it listed without the secret, reads its (empty) delivery log and removes it."""

from selenium.webdriver.common.by import By

from conftest import allow_console, click, fill, go, page_text, screenshot, wait_error, wait_for, wait_text, wait_title
from test_operator import operator_signs_in


def test_operator_adds_and_removes_a_webhook(server, browser):
    allow_console(browser, r"/operator/webhooks .*422")
    operator_signs_in(browser, server)
    go(browser, server, "/operator")
    wait_title(browser, "Operator console")
    click(browser, "#webhooks-link")
    wait_title(browser, "Webhooks")
    wait_text(browser, "#webhook-list", "No endpoints yet")

    # An internal address is refused by the server, with the reason; nothing is added.
    fill(browser, "#webhook-url", "https://127.0.0.1/hooks")
    fill(browser, "#webhook-pin", "7305")
    click(browser, "#webhook-add")
    wait_error(browser, "#webhook-form", "webhook_url_refused", "not allowed")

    fill(browser, "#webhook-url", "https://erp.countersign.test/hooks")
    fill(browser, "#webhook-events", "transfer.completed, topup.completed")
    fill(browser, "#webhook-pin", "7305")
    click(browser, "#webhook-add")
    secret = wait_for(browser, "#webhook-secret-value").text
    assert secret.startswith("whsec_"), secret
    row = wait_for(browser, "#webhook-list tr.webhook")
    assert "erp.countersign.test" in row.text and "transfer.completed" in row.text and "Enabled" in row.text
    screenshot(browser, "35-operator-webhooks")

    row.find_element(By.CSS_SELECTOR, ".webhook-log").click()
    wait_text(browser, "#webhook-log", "Nothing has been sent")

    # Opened again, the page shows the endpoint but never its secret again.
    go(browser, server, "/operator")
    wait_title(browser, "Operator console")
    click(browser, "#webhooks-link")
    wait_title(browser, "Webhooks")
    wait_for(browser, "#webhook-list tr.webhook")
    assert secret not in page_text(browser)

    wait_for(browser, "#webhook-list tr.webhook .webhook-remove").click()
    click(browser, "#webhook-remove-confirm-yes")
    wait_text(browser, "#webhook-list", "No endpoints yet")
