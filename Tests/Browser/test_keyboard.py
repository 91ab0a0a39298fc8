"""The app with the keyboard alone: sign-up (with its SMS code and the unlock code) and an airtime
payment by PIN, moving only with Tab, typing and Enter. Each new screen puts focus on its heading."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import LOCAL_PIN, PIN, allow_console, go, new_phone, naira, wait_for, wait_title

FUNDS = 500000


def focused(browser):
    """A short description of the element with focus: tag#id or tag.text."""
    return browser.execute_script(
        "const e = document.activeElement; return e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') : ''")


def press(browser, *keys):
    ActionChains(browser).send_keys(*keys).perform()


def tab_to(browser, css, most=40):
    """Presses Tab until the element matching `css` has focus (and fails if it never does)."""
    for _ in range(most):
        if browser.execute_script("return !!document.activeElement?.matches(arguments[0])", css):
            return
        press(browser, Keys.TAB)
    raise AssertionError(f"Tab never reached {css}; focus is on {focused(browser)}")


def type_into(browser, css, text):
    tab_to(browser, css)
    press(browser, text)


def heading_has_focus(browser, title):
    wait_title(browser, title)
    assert browser.execute_script("return document.activeElement === document.querySelector('main h1')"), focused(browser)


def test_sign_up_and_pay_with_the_keyboard_alone(server, browser):
    # Without a passkey, the options answer 422 no_registered_credential: the PIN may pay (within its allowance).
    allow_console(browser, r"/biometric/auth/options .*422")
    phone = new_phone()
    go(browser, server, "/signup")
    heading_has_focus(browser, "Create your account")
    type_into(browser, "#signup-phone", phone)
    before = server.messages(phone)
    tab_to(browser, "#signup-sms-send")
    press(browser, Keys.ENTER)
    code = server.new_code(phone, before)
    type_into(browser, "#signup-sms-code", code)
    type_into(browser, "#signup-name", "Kemi Keys")
    type_into(browser, "#signup-pin", PIN)
    type_into(browser, "#signup-pin2", PIN)
    tab_to(browser, "#signup-submit")
    press(browser, Keys.ENTER)

    heading_has_focus(browser, "Choose an unlock code for this device")
    type_into(browser, "#setup-pin", LOCAL_PIN)
    type_into(browser, "#setup-pin2", LOCAL_PIN)
    press(browser, Keys.ENTER)  # Enter in a field submits its form
    heading_has_focus(browser, "Hello, Kemi")
    server.fund(phone, FUNDS)

    # To Airtime by its tab, then the form, then the PIN (no passkey in this browser).
    tab_to(browser, "#nav a[href='#/airtime']")
    press(browser, Keys.ENTER)
    heading_has_focus(browser, "Buy airtime")
    type_into(browser, "#airtime-amount", "500")
    tab_to(browser, "#airtime-recipient")  # filled with the user's own number: replaced
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    press(browser, "08031234567")
    tab_to(browser, "#airtime-continue")
    press(browser, Keys.ENTER)
    heading_has_focus(browser, "Pay with PIN")
    type_into(browser, "#airtime-pin", PIN)
    press(browser, Keys.ENTER)
    heading_has_focus(browser, "Airtime sent")
    assert wait_for(browser, "#verdict-balance").text == naira(FUNDS - 50000)
