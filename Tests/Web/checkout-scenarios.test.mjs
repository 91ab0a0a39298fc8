// The payment screen's shared scenarios (Tests/Fixtures/checkout-scenarios.json), which the SDK's
// PaymentScreenModel runs too (CheckoutScenarioTests.swift), driven through the web's model
// (market/checkout-model.js) over the real client library: a fake `fetch` answers each request with
// the scenario's next answer and fails on any request the scenario does not expect.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Countersign, CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { PaymentScreen } from '../../Sources/CountersignServer/Resources/web/market/checkout-model.js';
import { freshSessionStorage } from './fakes.mjs';

const { fixtures, scenarios } = JSON.parse(readFileSync(new URL('../Fixtures/checkout-scenarios.json', import.meta.url), 'utf8'));
const SIDE = 'web';
const forUs = (item) => !item.only || item.only === SIDE;

// The model keeps a checkout's choices in sessionStorage (market/store.js): a fresh one per test.
freshSessionStorage();

/** The scenario's name for a request of the web's client. */
function callOf(method, path, body) {
  const calls = {
    'GET /user/profile': 'profile', 'GET /products/prd_1': 'product', 'GET /bids/bid_1': 'bid', 'GET /orders/ord_1': 'order',
    'GET /payment-methods/cards': 'cards', 'GET /user/wallet': 'wallet', 'POST /checkout/totals': 'totals',
    'POST /orders': 'placeOrder', 'GET /orders/ord_1/payment': 'payment', 'POST /bids/bid_1/withdraw': 'withdrawBid',
  };
  if (`${method} ${path}` === 'POST /orders/ord_1/pay') return body?.pin ? 'payWithPin' : 'pay';
  return calls[`${method} ${path}`] ?? `${method} ${path}`;
}

/** The shared name of a state of the web's model. */
function shared(state) {
  switch (state.kind) {
    case 'ready': {
      const notices = { paymentFailed: 'failed', paymentAbandoned: 'abandoned', pinNeeded: 'pinNeeded', passkeyRequired: 'passkeyRequired', error: 'error' };
      return notices[state.checkout.notice?.kind] ?? 'ready';
    }
    case 'paying': return { redirected: 'redirect', confirming: 'polling' }[state.step.kind] ?? 'paying';
    case 'confirmed': return 'paid';
    default: return state.kind;
  }
}

/** A server that answers from `script` in order; what it was sent is in `sent`. */
function scriptedServer() {
  const script = [];
  const sent = [];
  const take = (call) => {
    const next = script.shift();
    if (!next) throw new Error(`unexpected call: ${call} (the scenario expects no more)`);
    assert.equal(call, next.call, `the scenario expects ${next.call} next, the model called ${call}`);
    return next;
  };
  const fetch = async (url, init) => {
    const body = init.body ? JSON.parse(init.body) : undefined;
    const call = callOf(init.method, new URL(url, 'http://server.test').pathname, body);
    sent.push({ call, body });
    const next = take(call);
    if (next.refused) {
      return new Response(JSON.stringify({ error: next.refused }), { status: next.refused.status, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify(next.answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  const api = new Countersign({ baseURL: 'http://server.test', fetch });
  // The passkey's payment of a wallet order: one call here, the SDK's wallet authorization and pay there.
  api.market.payFromWallet = async (order, { sign }) => {
    assert.equal(typeof sign, 'function');
    assert.equal(order.id, 'ord_1');
    sent.push({ call: 'walletPayment', body: order });
    const next = take('walletPayment');
    if (next.refused) {
      const { status, code, ...more } = next.refused;
      throw Object.assign(new CountersignError(status, code, 'The passkey did not pay.'), more);
    }
    return next.answer;
  };
  return { api, script, sent };
}

/** The load's answers: the fixtures, the scenario's bid, and the wallet (the web offers it only with a balance). */
const loadAnswers = (scenario) => [
  { call: 'profile', answer: fixtures.profile }, { call: 'product', answer: fixtures.product },
  { call: 'bid', answer: fixtures[scenario.bid] }, { call: 'cards', answer: { cards: fixtures.cards } },
  { call: 'wallet', answer: fixtures.wallet },
];

/** Lets the model's timers (a debounce of 0) and their answers run until the totals settle. */
async function settled(screen) {
  for (let i = 0; i < 50; i++) {
    const totals = screen.state.checkout?.totals?.kind;
    if (totals !== 'refreshing') return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.fail('the totals never settled');
}

test('the scenarios are read: at least six, each starting with a load', () => {
  assert.ok(scenarios.length >= 6);
  for (const scenario of scenarios) assert.equal(scenario.steps[0].do, 'load', scenario.name);
});

describe('checkout scenarios, web', () => {
  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      const { api, script, sent } = scriptedServer();
      const redirects = [];
      const seen = [];
      const screen = new PaymentScreen(api.market, {
        returnURL: (orderId) => `http://app.test/?checkout=${orderId}`,
        redirect: (url) => redirects.push(url),
        sign: async () => ({ id: 'credential' }),
        onChange: (state) => {
          const name = shared(state);
          if (seen.at(-1) !== name) seen.push(name);
        },
        timing: { debounce: 0, pollInterval: 0, pollRetries: 3 },
      });
      for (const step of scenario.steps.filter(forUs)) {
        script.push(...(step.do === 'load' ? loadAnswers(scenario) : (step.server ?? []).filter(forUs)));
        seen.length = 0;
        switch (step.do) {
          case 'load':
            await screen.load(fixtures.product.id, fixtures[scenario.bid].id);
            break;
          case 'choose':
            if (step.paymentMethod) assert.ok(screen.choosePaymentMethod(step.paymentMethod), `${step.paymentMethod} offered`);
            if (step.delivery) assert.ok(screen.chooseDelivery(step.delivery), `${step.delivery} offered`);
            await settled(screen);
            break;
          case 'pay':
            await screen.pay();
            if (step.redirect) {
              assert.deepEqual(redirects, [step.server.find((s) => s.answer?.redirectURL).answer.redirectURL]);
              await (step.redirect === 'returned' ? screen.returned('ord_1') : screen.abandoned('ord_1'));
            }
            break;
          case 'payWithPin':
            await screen.payWithPin(step.pin);
            break;
          case 'abandon':
            await screen.abandon();
            break;
          default:
            assert.fail(`unknown step ${step.do}`);
        }
        const expected = Array.isArray(step.expect) ? step.expect : step.expect[SIDE];
        assert.deepEqual(seen, expected, `${step.do}: the states`);
        assert.deepEqual(script, [], `${step.do}: every answer the scenario gives is asked for`);
        if (step.total !== undefined) assert.equal(screen.state.checkout.totals.value.total, step.total, 'the server\'s total is shown');
        if (step.failure) assert.equal(screen.state.checkout.notice.failure.code, step.failure);
        if (step.sent) {
          const totals = sent.filter((s) => s.call === 'totals').at(-1).body;
          for (const [key, value] of Object.entries(step.sent)) assert.equal(totals[key], value, `totals request: ${key}`);
          assert.equal(totals.bidId, fixtures[scenario.bid].id);
        }
      }
      screen.stop();
    });
  }
});
