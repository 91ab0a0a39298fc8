"""The payment screen's model (market/checkout-model.js) in the browser, against a fake marketplace
that records its calls: the timing rules the screen tests cannot pin down (one totals request for
quick changes, a stale answer dropped, the number of polls, one payment for two presses).
"""

import pytest

from conftest import go, wait_for

# Runs in the app's page: imports the model, builds it over a fake marketplace, runs the scenario
# (statements using `model`, `calls`, `market`, `sleep`, `redirects`) and returns what it returns.
# The scenario is pasted into the script WebDriver injects: the page's CSP allows no eval.
HARNESS = """
const [done] = arguments;
(async () => {
  const { PaymentScreen } = await import('/market/checkout-model.js');
  const calls = [];
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const bid = { id: 'b1', productId: 'p1', status: 'ACCEPTED', amount: 10000, currency: 'EUR', buyNow: true };
  const order = { id: 'o1', bidId: 'b1', productId: 'p1', status: 'NEW', delivery: 'pickup', paymentMethod: 'ideal',
                  totals: { total: 10199, currency: 'EUR', lines: [] } };
  const market = {
    payments: [],            // answers of GET /orders/o1/payment, in order; then PAYMENT_PENDING
    totalsDelay: () => 0,    // ms before a totals answer
    profile: async () => ({ userId: 'u2', name: 'Bea', isMerchant: false,
                            addresses: [{ id: 'a1', name: 'Bea', line1: 'K 1', city: 'A', postalCode: '1', country: 'NL' }] }),
    product: async () => ({ id: 'p1', sellerId: 'u1', title: 'Chair', askingPrice: 10000, currency: 'EUR',
                            deliveryMethods: [{ id: 'pickup', name: 'Pickup' }, { id: 'postnl_standard', name: 'PostNL standard' }] }),
    getBid: async () => bid,
    orderOf: async () => null,
    cards: async () => [],
    totals: async (r) => {
      calls.push(['totals', r.delivery, r.paymentMethod]);
      await sleep(market.totalsDelay(r));
      return { subtotal: 10000, shipping: r.delivery === 'pickup' ? 0 : 695, paymentFee: 199,
               total: 10199 + (r.delivery === 'pickup' ? 0 : 695), currency: 'EUR', lines: [] };
    },
    placeOrder: async (r) => { calls.push(['order']); await sleep(20); return { ...order, delivery: r.delivery }; },
    pay: async (id) => { calls.push(['pay']); return { orderId: id, orderStatus: 'PAYMENT_PENDING', redirectURL: '/sim/pay/pi_1' }; },
    payment: async (id) => { calls.push(['poll']); return market.payments.shift() ?? { orderId: id, orderStatus: 'PAYMENT_PENDING' }; },
  };
  sessionStorage.clear();
  const redirects = [];
  const model = new PaymentScreen(market, { returnURL: (id) => `${location.origin}/?checkout=${id}`,
    redirect: (url) => redirects.push(url), onChange: () => {},
    timing: { debounce: 50, pollInterval: 20, pollRetries: 3 } });
  await model.load('p1', 'b1');
  /*SCENARIO*/
})().then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));
"""


@pytest.fixture
def page(server, browser):
    go(browser, server, "/")  # the app's origin, so the module imports are same-origin
    wait_for(browser, "main")
    return browser


def run(page, scenario):
    answer = page.execute_async_script(HARNESS.replace("/*SCENARIO*/", scenario))
    assert "error" not in answer, answer["error"]
    return answer["value"]


def test_market_model_quick_changes_send_one_totals_request(page):
    value = run(page, """
        model.choosePaymentMethod('card');      // refused: no saved card
        model.choosePaymentMethod('ideal');
        model.chooseDelivery('postnl_standard');
        model.choosePaymentMethod('bancontact');
        model.chooseDelivery('pickup');
        await sleep(200);
        return { calls, totals: model.state.checkout.totals };
    """)
    assert value["calls"] == [["totals", "pickup", "bancontact"]]
    assert value["totals"]["kind"] == "ready" and value["totals"]["value"]["total"] == 10199


def test_market_model_drops_a_stale_totals_answer(page):
    value = run(page, """
        market.totalsDelay = (r) => r.delivery === 'postnl_standard' ? 300 : 0;
        model.choosePaymentMethod('ideal');
        model.chooseDelivery('postnl_standard');
        await sleep(100);                         // the slow shipping request is out
        model.chooseDelivery('pickup');
        await sleep(500);                         // both have answered
        return { calls, totals: model.state.checkout.totals, canPay: model.payable() !== null };
    """)
    assert value["calls"] == [["totals", "postnl_standard", "ideal"], ["totals", "pickup", "ideal"]]
    assert value["totals"]["value"]["total"] == 10199  # pickup's, not the late shipping answer
    assert value["canPay"]


def test_market_model_polls_four_times_then_payment_failing(page):
    value = run(page, """
        model.choosePaymentMethod('ideal');
        await sleep(150);
        await model.pay();
        const afterPay = { kind: model.state.kind, step: model.state.step.kind, redirects };
        const returned = await model.returned('o1');
        const polls = calls.filter((c) => c[0] === 'poll').length;
        market.payments.push({ orderId: 'o1', orderStatus: 'PAID' });
        const again = await model.checkAgain();
        return { afterPay, returned: returned.kind, polls, again: again.kind };
    """)
    assert value["afterPay"] == {"kind": "paying", "step": "redirected", "redirects": ["/sim/pay/pi_1"]}
    assert value["returned"] == "paymentFailing"
    assert value["polls"] == 4  # the first and three more tries
    assert value["again"] == "confirmed"


def test_market_model_abandoned_looks_once_and_keeps_the_choices(page):
    value = run(page, """
        model.chooseDelivery('postnl_standard');
        model.choosePaymentMethod('bancontact');
        await sleep(150);
        await model.pay();
        const kept = JSON.parse(sessionStorage.getItem('countersign.market.checkout.b1'));
        const state = await model.abandoned(model.redirectedOrder);
        return { kept, kind: state.kind, notice: state.checkout.notice, choices: state.checkout.choices,
                 polls: calls.filter((c) => c[0] === 'poll').length, redirectedAfter: model.redirectedOrder };
    """)
    assert value["kept"]["redirected"] is True and value["kept"]["orderId"] == "o1"
    assert value["kind"] == "ready" and value["notice"] == {"kind": "paymentAbandoned"}
    assert value["choices"]["delivery"] == "postnl_standard" and value["choices"]["paymentMethod"] == "bancontact"
    assert value["choices"]["addressId"] == "a1"
    assert value["polls"] == 1
    assert value["redirectedAfter"] is None


def test_market_model_two_presses_start_one_payment(page):
    value = run(page, """
        model.choosePaymentMethod('ideal');
        await sleep(150);
        await Promise.all([model.pay(), model.pay()]);
        return calls.filter((c) => c[0] !== 'totals');
    """)
    assert value == [["order"], ["pay"]]
