// Add money's screen models (screens/add-money-model.js) driven without a DOM, over a strict fake
// client: the form's funding (to the provider's page or straight to the result) and the result's polls.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { AddMoneyForm, FundingResult, PENDING_KEY, methodsFor } from '../../Sources/CountersignServer/Resources/web/screens/add-money-model.js';
import { freshSessionStorage, strictFake } from './fakes.mjs';

freshSessionStorage();

const wallets = [{ currency: 'NGN', balance: 0 }, { currency: 'EUR', balance: 0 }];
const card = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };

/** The form over a fake client, loaded; `went` records redirects and navigations. */
async function form(answers = {}, { cards = [card], wanted = null } = {}) {
  const client = strictFake('api', { wallet: () => ({ currency: 'NGN', balance: 0, wallets }), ...answers });
  const market = strictFake('market', { cards: () => cards }).fake;
  const api = new Proxy(client.fake, { get: (target, name) => (name === 'market' ? market : target[name]) });
  const went = [];
  const states = [];
  const model = new AddMoneyForm(api, {
    returnURL: 'https://app.test/?funding=return',
    redirect: (url) => went.push(['redirect', url]),
    navigate: (path) => went.push(['navigate', path]),
    storage: sessionStorage,
    onChange: (s) => states.push(s),
  });
  await model.load(wanted);
  return { model, client, went, states };
}

describe('the add money form', () => {
  test('the wallets and cards read; the first wallet chosen unless one is asked for', async () => {
    assert.equal((await form()).states.at(-1).currency, 'NGN');
    const { states } = await form({}, { wanted: 'EUR' });
    assert.deepEqual(states.map((s) => s.kind), ['form']);
    assert.equal(states[0].currency, 'EUR');
    assert.equal((await form({}, { wanted: 'USD' })).states[0].currency, 'NGN');
  });

  test('the euro wallet offers banks, the naira one only cards', () => {
    assert.deepEqual(methodsFor('EUR').map(([m]) => m), ['card', 'ideal', 'bancontact']);
    assert.deepEqual(methodsFor('NGN').map(([m]) => m), ['card']);
  });

  test('by card, settled at once: straight to the result, the same key on a retry', async () => {
    const keys = [];
    const { model, client, went } = await form({
      createFunding: (body, { idempotencyKey }) => { keys.push(idempotencyKey); return { fundingId: 'fd 1' }; },
    });
    const fields = { currency: 'NGN', amount: '50', method: 'card', card: 'pm_1' };
    await model.start(fields);
    await model.start(fields);
    await model.start({ ...fields, amount: '60' });
    assert.deepEqual(client.calls[1][1], { amount: 5000, currency: 'NGN', method: 'card', returnURL: 'https://app.test/?funding=return', paymentMethodId: 'pm_1' });
    assert.deepEqual(went[0], ['navigate', '/add-money/fd%201']);
    assert.equal(keys[0], keys[1]);
    assert.notEqual(keys[1], keys[2]);
  });

  test('by bank: off to the provider, the funding kept for the return', async () => {
    const { model, client, went } = await form({ createFunding: () => ({ fundingId: 'fd_2', redirectURL: 'https://bank.test/pay' }) });
    await model.start({ currency: 'EUR', amount: '10.50', method: 'ideal', card: 'pm_1' });
    assert.equal(client.calls[1][1].paymentMethodId, undefined);
    assert.deepEqual(went, [['redirect', 'https://bank.test/pay']]);
    assert.equal(sessionStorage.getItem(PENDING_KEY), 'fd_2');
  });

  test('an amount that is not one, or a card with none saved: refused before any call', async () => {
    const { model, client } = await form({}, { cards: [] });
    await assert.rejects(model.start({ currency: 'NGN', amount: '0', method: 'card', card: '' }), { field: 'amount' });
    await assert.rejects(model.start({ currency: 'NGN', amount: 'x', method: 'card', card: '' }), { field: 'amount' });
    await assert.rejects(model.start({ currency: 'NGN', amount: '5', method: 'card', card: '' }), /Save a card first/);
    assert.deepEqual(client.names(), ['wallet']);
  });

  test('the server refuses: rejects with its error, nowhere to go', async () => {
    const { model, went } = await form({ createFunding: () => { throw new CountersignError(422, 'invalid_amount', 'no'); } });
    await assert.rejects(model.start({ currency: 'NGN', amount: '50000', method: 'card', card: 'pm_1' }), { code: 'invalid_amount' });
    assert.deepEqual(went, []);
  });
});

describe("the funding's result", () => {
  /** The result over fundings answered in turn. */
  async function result(id, answers, polls = 30) {
    const client = strictFake('api', { funding: () => answers.shift()() });
    const states = [];
    const model = new FundingResult(client.fake, id, { storage: sessionStorage, onChange: (s) => states.push(s), wait: async () => {}, polls });
    await model.start();
    return { model, client, states };
  }
  const f = (status) => () => ({ fundingId: 'fd_1', status, amount: 5000, currency: 'EUR' });

  test('no funding kept for a return: nothing to check, no call', async () => {
    const { model, client } = await result('return', []);
    assert.equal(model.state.kind, 'none');
    assert.deepEqual(client.names(), []);
  });

  test('back from the provider: the kept funding polled until it settles, then forgotten', async () => {
    sessionStorage.setItem(PENDING_KEY, 'fd_1');
    const { client, states } = await result('return', [f('pending'), f('pending'), f('succeeded')]);
    assert.deepEqual(states.map((s) => s.funding.status), ['pending', 'pending', 'succeeded']);
    assert.deepEqual(client.calls[0], ['funding', 'fd_1']);
    assert.equal(sessionStorage.getItem(PENDING_KEY), null);
  });

  test('still pending when the polls run out: kept for later', async () => {
    sessionStorage.setItem(PENDING_KEY, 'fd_1');
    const { states } = await result('return', [f('pending'), f('pending')], 2);
    assert.equal(states.length, 2);
    assert.equal(sessionStorage.getItem(PENDING_KEY), 'fd_1');
  });

  for (const status of ['failed', 'canceled']) {
    test(`${status}: shown once, no more polls`, async () => {
      const { client, states } = await result('fd_1', [f(status)]);
      assert.deepEqual(states.map((s) => [s.kind, s.funding.status]), [['shown', status]]);
      assert.equal(client.calls.length, 1);
    });
  }

  test('unreadable: the failed state, no more polls', async () => {
    const { client, states } = await result('fd_1', [() => { throw new CountersignError(404, 'not_found', 'no'); }]);
    assert.equal(states.at(-1).kind, 'failed');
    assert.equal(states.at(-1).error.code, 'not_found');
    assert.equal(client.calls.length, 1);
  });

  test('stopped: nothing more drawn or asked', async () => {
    const client = strictFake('api', { funding: f('pending') });
    const states = [];
    const model = new FundingResult(client.fake, 'fd_1', { storage: sessionStorage, onChange: (s) => states.push(s), wait: async () => model.stop() });
    await model.start();
    assert.equal(states.length, 1);
    assert.equal(client.calls.length, 1);
  });
});
