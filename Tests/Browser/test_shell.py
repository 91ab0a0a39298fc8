"""The shell itself: the name the app is opened by, and the page's own security."""

from selenium.webdriver.support.ui import WebDriverWait

from conftest import allow_console, screenshot, wait_for


def test_opened_as_127_0_0_1_moves_to_localhost(browser, server):
    # Passkeys need the relying party's name (localhost), and the server's Origin check knows the
    # app by it: the address 127.0.0.1 would leave the user with nothing that works.
    browser.get(f"http://127.0.0.1:{server.port}/#/signin")
    WebDriverWait(browser, 10).until(lambda d: d.current_url.startswith(f"http://localhost:{server.port}/"))
    assert browser.current_url.endswith("#/signin")
    wait_for(browser, "h1")
    screenshot(browser, "shell-localhost")


def test_inline_script_is_refused_by_the_policy(browser, server):
    # The app's Content-Security-Policy allows our own files only: a script injected into the
    # page does not run.
    allow_console(browser, r"Content Security Policy")
    browser.get(f"{server.base_url}/")
    wait_for(browser, "h1")
    ran = browser.execute_script(
        """
        window.__injected = false;
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.head.appendChild(s);
        return window.__injected;
        """
    )
    assert ran is False
