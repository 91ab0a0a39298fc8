// The marketplace payment screen's model (market/checkout-model.js) driven without a DOM: a fake
// marketplace answers what each test expects and fails loudly on any other call.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { PaymentScreen, walletFallback } from '../../Sources/CountersignServer/Resources/web/market/checkout-model.js';
import { freshSessionStorage, strictFake } from './fakes.mjs';

// The model keeps a checkout's choices in sessionStorage (market/store.js): a fresh one per test.
freshSessionStorage();

const profile = { userId: 'usr_buyer', name: 'Ada', addresses: [] };
const product = {
  id: 'prd_1', sellerId: 'usr_seller', title: 'Lamp', askingPrice: 1000, currency: 'EUR',
  deliveryMethods: [{ id: 'pickup', name: 'Pickup' }, { id: 'postnl_standard', name: 'PostNL standard' }],
};
const bid = { id: 'bid_1', productId: 'prd_1', amount: 1000, currency: 'EUR', status: 'ACCEPTED', buyNow: false };
const card = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
const totalsOf = (request) => ({
  subtotal: 1000, shipping: 0, paymentFee: request.paymentMethod === 'card' ? 29 : 0,
  total: request.paymentMethod === 'card' ? 1029 : 1000, currency: 'EUR', lines: [],
});
const order = (request, status = 'NEW') => ({
  id: 'ord_1', bidId: bid.id, productId: product.id, status, delivery: request.delivery,
  paymentMethod: request.paymentMethod, totals: totalsOf(request),
});

/** A marketplace whose calls are `answers` (the seed's loading calls by default); every call is in `calls`. */
function fakeMarket(answers = {}) {
  const { fake, calls, names } = strictFake('market', {
    profile: () => profile,
    product: () => product,
    getBid: () => bid,
    orderOf: () => null,
    cards: () => [],
    wallet: () => ({ wallets: [{ currency: 'EUR', balance: 5000 }] }),
    totals: (request) => totalsOf(request),
    ...answers,
  });
  return { market: fake, calls, names };
}

/** The screen over `market`, with no waits; `redirects` and `states` record what it did. */
function screenFor(market) {
  const redirects = [];
  const states = [];
  const sign = async () => ({ id: 'assertion' });
  const screen = new PaymentScreen(market, {
    returnURL: (orderId) => `https://shop.example/?checkout=${orderId}`,
    redirect: (url) => redirects.push(url),
    sign,
    onChange: (state) => states.push(state),
    timing: { debounce: 0, pollInterval: 0, pollRetries: 3 },
  });
  return { screen, redirects, states, sign };
}

/** Lets the debounced totals request run and answer. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Loaded, `method` chosen, its totals in. */
async function readyWith(fake, method) {
  const s = screenFor(fake.market);
  await s.screen.load(product.id, bid.id);
  assert.equal(s.screen.choosePaymentMethod(method), true);
  await settle();
  assert.equal(s.screen.state.checkout.totals.kind, 'ready');
  return s;
}

describe('loading', () => {
  test('loads in the seed order and is ready with pickup and no payment method', async () => {
    const fake = fakeMarket();
    const { screen } = screenFor(fake.market);
    const state = await screen.load(product.id, bid.id);
    assert.equal(state.kind, 'ready');
    assert.deepEqual(fake.names(), ['profile', 'product', 'getBid', 'orderOf', 'cards', 'wallet']);
    assert.deepEqual(state.checkout.choices, { delivery: 'pickup', addressId: null, paymentMethod: null, cardId: null });
    assert.equal(state.checkout.totals.kind, 'incomplete');
    assert.deepEqual(state.checkout.wallet, { currency: 'EUR', balance: 5000 });
  });

  test('a failed call ends in loadFailed with its error', async () => {
    const error = new CountersignError(404, 'bid_not_found', 'No such bid.');
    const { screen } = screenFor(fakeMarket({ getBid: () => { throw error; } }).market);
    const state = await screen.load(product.id, bid.id);
    assert.equal(state.kind, 'loadFailed');
    assert.equal(state.error, error);
  });

  test("the seller's own product is not offered", async () => {
    const { screen } = screenFor(fakeMarket({ profile: () => ({ ...profile, userId: product.sellerId }) }).market);
    assert.deepEqual(await screen.load(product.id, bid.id), { kind: 'unavailable', reason: 'ownProduct' });
  });
});

describe('choosing', () => {
  test('a payment method asks for the totals of exactly those choices', async () => {
    const fake = fakeMarket();
    const { screen } = await readyWith(fake, 'ideal');
    assert.deepEqual(fake.calls.find(([name]) => name === 'totals'),
      ['totals', { bidId: bid.id, delivery: 'pickup', paymentMethod: 'ideal' }]);
    assert.equal(screen.state.checkout.choices.paymentMethod, 'ideal');
    assert.equal(screen.state.checkout.totals.value.total, 1000);
  });

  test('card is refused without a saved card', async () => {
    const { screen } = screenFor(fakeMarket().market);
    await screen.load(product.id, bid.id);
    assert.equal(screen.choosePaymentMethod('card'), false);
    assert.equal(screen.state.checkout.choices.paymentMethod, null);
  });

  test('the wallet is refused while it is empty', async () => {
    const { screen } = screenFor(fakeMarket({ wallet: () => ({ wallets: [{ currency: 'EUR', balance: 0 }] }) }).market);
    await screen.load(product.id, bid.id);
    assert.equal(screen.choosePaymentMethod('wallet'), false);
  });
});

describe('paying', () => {
  test("by card: the order, the payment with the card, then the provider's page", async () => {
    const redirectURL = 'https://bank.example/3ds/ord_1';
    const fake = fakeMarket({
      cards: () => [card],
      placeOrder: (request) => order(request),
      pay: (orderId) => ({ orderId, orderStatus: 'PAYMENT_PENDING', redirectURL }),
      payment: (orderId) => ({ orderId, orderStatus: 'PAID' }),
    });
    const { screen, redirects } = await readyWith(fake, 'card');
    const state = await screen.pay();
    assert.deepEqual(fake.calls.find(([name]) => name === 'placeOrder'),
      ['placeOrder', { bidId: bid.id, delivery: 'pickup', paymentMethod: 'card' }]);
    assert.deepEqual(fake.calls.find(([name]) => name === 'pay'),
      ['pay', 'ord_1', { paymentMethodId: card.id, returnURL: 'https://shop.example/?checkout=ord_1' }]);
    assert.deepEqual(redirects, [redirectURL]);
    assert.equal(state.kind, 'paying');
    assert.deepEqual(state.step, { kind: 'redirected', url: redirectURL });
    assert.equal(screen.redirectedOrder, 'ord_1');
    // Back through the return URL: the server says it is paid.
    const back = await screen.returned('ord_1');
    assert.equal(back.kind, 'confirmed');
    assert.equal(back.order.status, 'PAID');
    assert.equal(screen.redirectedOrder, null);
  });

  test('a declined card returns to the screen with the reason, choices kept', async () => {
    const failure = { code: 'card_declined', message: 'Declined.' };
    const fake = fakeMarket({
      cards: () => [card],
      placeOrder: (request) => order(request),
      pay: (orderId) => ({ orderId, orderStatus: 'NEW', error: failure }),
    });
    const { screen } = await readyWith(fake, 'card');
    const state = await screen.pay();
    assert.equal(state.kind, 'ready');
    assert.deepEqual(state.checkout.notice, { kind: 'paymentFailed', failure });
    assert.equal(state.checkout.choices.paymentMethod, 'card');
  });

  test("from the wallet: the passkey signs the order with its seller, paid at once", async () => {
    const fake = fakeMarket({
      placeOrder: (request) => order(request),
      payFromWallet: (o) => ({ orderId: o.id, orderStatus: 'PAID' }),
    });
    const { screen, sign, redirects } = await readyWith(fake, 'wallet');
    const state = await screen.pay();
    const [, shown, signer] = fake.calls.find(([name]) => name === 'payFromWallet');
    assert.equal(shown.id, 'ord_1');
    assert.equal(shown.sellerId, product.sellerId);
    assert.equal(shown.totals.total, 1000);
    assert.equal(signer.sign, sign);
    assert.equal(state.kind, 'confirmed');
    assert.deepEqual(redirects, []);
  });

  test('from the wallet, the passkey gesture refused: the PIN is offered', async () => {
    const refused = Object.assign(new DOMException('The operation was not allowed.', 'NotAllowedError'),
      { stage: 'sign', pinAllowed: true });
    const fake = fakeMarket({ placeOrder: (request) => order(request), payFromWallet: () => { throw refused; } });
    const { screen } = await readyWith(fake, 'wallet');
    const state = await screen.pay();
    assert.equal(state.kind, 'ready');
    assert.deepEqual(state.checkout.notice, { kind: 'pinNeeded', orderId: 'ord_1', reason: 'passkeyFailed', error: refused });
  });

  test('then a wrong PIN keeps the PIN form, saying so; the right one pays', async () => {
    const wrongPin = new CountersignError(401, 'invalid_pin', 'Wrong PIN.');
    const fake = fakeMarket({
      placeOrder: (request) => order(request),
      payFromWallet: () => { throw new CountersignError(400, 'no_registered_credential', 'No passkey.'); },
      payWithPin: (orderId, pin) => {
        if (pin !== '4827') throw wrongPin;
        return { orderId, orderStatus: 'PAID' };
      },
    });
    const { screen } = await readyWith(fake, 'wallet');
    assert.deepEqual((await screen.pay()).checkout.notice, { kind: 'pinNeeded', orderId: 'ord_1', reason: 'noKey' });
    const again = await screen.payWithPin('0000');
    assert.equal(again.kind, 'ready');
    assert.deepEqual(again.checkout.notice, { kind: 'pinNeeded', orderId: 'ord_1', reason: 'noKey', error: wrongPin });
    const paid = await screen.payWithPin('4827');
    assert.equal(paid.kind, 'confirmed');
    assert.deepEqual(fake.calls.filter(([name]) => name === 'payWithPin'),
      [['payWithPin', 'ord_1', '0000'], ['payWithPin', 'ord_1', '4827']]);
  });

  test('a PIN beyond its allowance: only the passkey may pay', async () => {
    const strong = new CountersignError(403, 'strong_authentication_required', 'Use your passkey.');
    const fake = fakeMarket({
      placeOrder: (request) => order(request),
      payFromWallet: () => { throw new CountersignError(400, 'no_registered_credential', 'No passkey.'); },
      payWithPin: () => { throw strong; },
    });
    const { screen } = await readyWith(fake, 'wallet');
    await screen.pay();
    const state = await screen.payWithPin('4827');
    assert.equal(state.kind, 'ready');
    assert.deepEqual(state.checkout.notice, { kind: 'passkeyRequired', error: strong });
  });

  test('payWithPin does nothing unless the PIN was offered', async () => {
    const fake = fakeMarket();
    const { screen } = await readyWith(fake, 'wallet');
    const before = screen.state;
    assert.equal(await screen.payWithPin('4827'), before);
    assert.ok(!fake.names().includes('payWithPin'));
  });
});

describe('walletFallback', () => {
  test('no passkey yet: the PIN', () => {
    assert.deepEqual(walletFallback({ code: 'no_registered_credential' }, 'ord_1'), { kind: 'pinNeeded', orderId: 'ord_1', reason: 'noKey' });
  });

  test('the gesture or its verification failed: the PIN where the server allows it, else the passkey alone', () => {
    const signFailed = { stage: 'sign', pinAllowed: true };
    assert.deepEqual(walletFallback(signFailed, 'ord_1'), { kind: 'pinNeeded', orderId: 'ord_1', reason: 'passkeyFailed', error: signFailed });
    const verifyFailed = { stage: 'verify', pinAllowed: false };
    assert.deepEqual(walletFallback(verifyFailed, 'ord_1'), { kind: 'passkeyRequired', error: verifyFailed });
  });

  test('strong authentication required: the passkey alone', () => {
    const error = { code: 'strong_authentication_required' };
    assert.deepEqual(walletFallback(error, 'ord_1'), { kind: 'passkeyRequired', error });
  });

  test('anything else (too little money, a limit) is the error itself', () => {
    const error = { code: 'insufficient_funds', status: 422 };
    assert.deepEqual(walletFallback(error, 'ord_1'), { kind: 'error', error });
  });
});
