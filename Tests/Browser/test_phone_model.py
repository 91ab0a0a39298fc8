"""The SMS code step's model (screens/phone-code.js) in the browser, against a fake client that
records its calls: the resend wait, and in test mode the simulator's code for this purpose, not an
older one or another purpose's."""

import pytest

from conftest import go, wait_for

HARNESS = """
const [done] = arguments;
(async () => {
  const { PhoneCode, codeIn } = await import('/screens/phone-code.js');
  const calls = [];
  let now = 1_000_000;
  const at = (ms) => new Date(ms).toISOString();
  const api = {
    testMode: true,
    messages: [],
    health: async () => ({ status: 'ok', smsTestMode: api.testMode }),
    sent: 0,
    requestCode: async (body) => { calls.push(['code', body.phone, body.purpose]);
      return { verificationId: 'pv_' + (++api.sent), expiresIn: 600, resendAfter: 30 }; },
    simulatedMessages: async (phone) => { calls.push(['sim', phone]); return { messages: api.messages }; },
  };
  const states = [];
  const model = new PhoneCode(api, { purpose: 'login', now: () => now, pollMs: 5, pollTries: 5,
    onChange: (s) => states.push(s.kind) });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  /*SCENARIO*/
})().then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));
"""


@pytest.fixture
def page(server, browser):
    go(browser, server, "/")
    wait_for(browser, "main")
    return browser


def run(page, scenario):
    result = page.execute_async_script(HARNESS.replace("/*SCENARIO*/", scenario))
    assert "error" not in result, result.get("error")
    return result["value"]


def test_sent_code_waits_for_its_resend(page):
    value = run(page, """
      await model.send('08012345678');
      const first = model.resendIn();
      now += 29_500;
      const almost = model.resendIn();
      now += 600;
      return { first, almost, after: model.resendIn(), id: model.proof('123456'), states };
    """)
    assert value["first"] == 30 and value["almost"] == 1 and value["after"] == 0
    assert value["id"] == {"verificationId": "pv_1", "code": "123456"}
    assert value["states"][:2] == ["sending", "sent"]


def test_test_mode_shows_this_purposes_new_code(page):
    value = run(page, """
      api.messages = [
        { to: '+2348012345678', body: '111111 is your code to add a device key to your Countersign account.', sentAt: at(now) },
        { to: '+2348012345678', body: 'Your Countersign account was signed in to on a new device.', sentAt: at(now) },
        { to: '+2348012345678', body: '222222 is your code to sign in to Countersign on a new device.', sentAt: at(now) },
        { to: '+2348012345678', body: '333333 is your code to sign in to Countersign on a new device.', sentAt: at(now - 3_600_000) },
      ];
      await model.send('08012345678');
      for (let i = 0; i < 50 && !model.state.simulated; i++) await sleep(5);
      const first = model.state.simulated;
      // A resend: the code shown before is not shown again; the new one is.
      now += 31_000;
      api.messages.unshift({ to: '+2348012345678', body: '444444 is your code to sign in to Countersign on a new device.', sentAt: at(now) });
      await model.send('08012345678');
      for (let i = 0; i < 50 && model.state.simulated !== '444444'; i++) await sleep(5);
      return { first, second: model.state.simulated, id: model.state.verificationId, parsed: codeIn('12345 no') };
    """)
    assert value == {"first": "222222", "second": "444444", "id": "pv_2", "parsed": None}


def test_without_test_mode_the_simulator_is_not_asked(page):
    value = run(page, """
      api.testMode = false;
      await model.send('08012345678');
      await sleep(50);
      return { calls, simulated: model.state.simulated };
    """)
    assert value == {"calls": [["code", "08012345678", "login"]], "simulated": None}
