"""The shared presentation. Errors (ui.showError): what happened and what to do in words, never the
server's developer text or its code as the headline; the code, the reference and the server's text
behind a "Details for support" disclosure; every error code the API documents has words of its own;
form errors tied to their fields. Money: one format for every currency (ui.money)."""

import re

from selenium.webdriver.common.by import By

from conftest import REPO, click, fill, go, wait_for, wait_title

SPEC = REPO / "Sources" / "CountersignServer" / "Resources" / "openapi.yaml"


def documented_codes():
    """The codes listed under `x-error-codes` in the API description."""
    codes = set()
    for listed in re.findall(r"x-error-codes:\s*\[([^\]]*)\]", SPEC.read_text()):
        codes.update(code.strip() for code in listed.split(",") if code.strip())
    return codes


RENDER = """
const [error, done] = arguments;
const shown = (async () => {
  const ui = await import('/ui.js');
  const { CountersignError } = await import('/countersign.js');
  const box = document.createElement('div');
  document.body.append(box);
  const made = error.recorded ? error.recorded : error.status === undefined ? error.message
    : new CountersignError(error.status, error.code, error.message, error.retryAfter ?? null, null, error.traceId);
  const shown = ui.showError(box, made);
  const details = shown.querySelector('details');
  const result = {
    headline: shown.querySelector('.error-what').textContent,
    next: shown.querySelector('.error-next')?.textContent ?? null,
    role: shown.getAttribute('role'),
    visible: shown.innerText,
    details: details ? details.textContent : null,
    open: details ? details.open : null,
  };
  box.remove();
  return result;
})();
shown.then((value) => done({ value }), (failure) => done({ error: String(failure?.stack ?? failure) }));
"""


def render(app_page, error):
    result = app_page.execute_async_script(RENDER, error)
    assert "error" not in result, result["error"]
    return result["value"]


def test_server_text_is_never_the_headline(app_page):
    shown = render(app_page, {"status": 422, "code": "invalid_phone", "message": "phone must be a phone number: 'abc'",
                          "traceId": "0af7651916cd43dd8448eb211c80319c"})
    assert shown["role"] == "alert"
    assert shown["headline"] == "That phone number does not look right."
    assert shown["next"].startswith("Check it")
    assert "must be a phone number" not in shown["visible"]
    assert "invalid_phone" not in shown["visible"] and "0af7651916cd43dd8448eb211c80319c" not in shown["visible"]
    assert shown["open"] is False
    assert "invalid_phone" in shown["details"] and "0af7651916cd43dd8448eb211c80319c" in shown["details"]
    assert "must be a phone number" in shown["details"]


def test_lock_says_when_to_try_again(app_page):
    shown = render(app_page, {"status": 423, "code": "pin_locked", "message": "PIN locked", "retryAfter": 840})
    assert "locked" in shown["headline"]
    assert shown["next"] == "Try again in 14 minutes."


def test_unknown_code_gets_words_for_its_status(app_page):
    shown = render(app_page, {"status": 409, "code": "something_new", "message": "raw text"})
    assert shown["headline"] == "That clashes with something that changed meanwhile."
    assert "raw text" not in shown["visible"] and "something_new" in shown["details"]


def test_a_failure_recorded_in_a_document_reads_by_its_code(app_page):
    """A transfer's or payment's recorded error ({code, message}) gets the same words as a refusal."""
    shown = render(app_page, {"recorded": {"code": "insufficient_funds", "message": "wallet balance 100 < 5000"}})
    assert shown["headline"] == "Your wallet does not hold enough for this."
    assert "5000" not in shown["visible"] and "wallet balance 100 < 5000" in shown["details"]


def test_the_apps_own_sentence_is_shown_as_it_is(app_page):
    shown = render(app_page, {"message": "Enter your 4 to 6 digit PIN above first."})
    assert shown["headline"] == "Enter your 4 to 6 digit PIN above first."
    assert shown["details"] is None


def test_every_documented_code_has_words(app_page):
    codes = sorted(documented_codes())
    assert len(codes) > 100, codes
    missing = app_page.execute_async_script(
        """
        const [codes, done] = arguments;
        import('/error-words.js').then((m) => done(codes.filter((c) => !m.hasWords(c))), (e) => done([String(e)]));
        """,
        codes,
    )
    assert missing == [], f"error codes without words in error-words.js: {missing}"


def test_one_money_format_for_every_currency(app_page):
    """ui.money writes every currency by one rule: its symbol before the amount, English grouping."""
    shown = app_page.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        import('/ui.js').then((ui) => done([ui.money(100000, 'NGN'), ui.money(1250, 'EUR'), ui.money(123456789, 'EUR'),
          ui.money(-300, 'NGN'), ui.money(0, 'EUR')]), (e) => done([String(e)]));
        """
    )
    assert shown == ["₦1,000.00", "€12.50", "€1,234,567.89", "-₦3.00", "€0.00"], shown


def test_form_errors_are_tied_to_their_fields(server, browser):
    go(browser, server, "/signin")
    wait_title(browser, "Sign in")
    click(browser, "#signin-submit")
    for field_id, value in (("signin-phone", "08031234567"), ("signin-pin", None)):
        error = wait_for(browser, f"#{field_id}-error")
        field = browser.find_element(By.ID, field_id)
        assert field.get_attribute("aria-invalid") == "true", field_id
        assert error.get_attribute("id") in field.get_attribute("aria-describedby").split(), field_id
        assert browser.execute_script("return document.activeElement.id") == field_id
        if value:
            fill(browser, f"#{field_id}", value)
            click(browser, "#signin-submit")
    assert browser.find_element(By.ID, "signin-phone").get_attribute("aria-invalid") is None
