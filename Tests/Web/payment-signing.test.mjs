// countersign.js's payment flows recompute the challenge before anything is signed: with the
// server's options taken from the shared vectors (Tests/Fixtures/canonical-json.json), a matching
// challenge is signed once, and a challenge or payment other than the one shown is refused with
// nothing signed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Countersign } from '../../Sources/CountersignServer/Resources/web/countersign.js';

const vectors = JSON.parse(readFileSync(new URL('../Fixtures/canonical-json.json', import.meta.url), 'utf8'));
const named = (list, start) => list.find((v) => v.name.startsWith(start));
const airtime = named(vectors.paymentIntents, 'airtime top-up, ');
const marketplace = named(vectors.paymentIntents, 'marketplace order');
const transfer = vectors.transferQuotes[0];
const otherChallenge = vectors.paymentIntents[1].challenge;

/** A client whose server answers `routes['METHOD /path']` (a function of the body); any other call fails. */
function client(routes) {
  const calls = [];
  const fetch = async (url, init) => {
    const key = `${init.method} ${new URL(url, 'http://server.test').pathname}`;
    calls.push(key);
    if (!routes[key]) throw new Error(`unexpected request: ${key}`);
    const body = init.body ? JSON.parse(init.body) : undefined;
    return new Response(JSON.stringify(routes[key](body)), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  return { api: new Countersign({ baseURL: 'http://server.test', fetch }), calls };
}

/** A signer that records what it was asked to sign. */
function signer() {
  const signed = [];
  return { signed, sign: async (options) => { signed.push(options); return { id: 'credential', response: {} }; } };
}

describe('a marketplace order paid from the wallet', () => {
  const order = {
    id: marketplace.signed.productCode, sellerId: marketplace.signed.supplierSlug,
    totals: { total: marketplace.signed.amount, currency: marketplace.signed.currency },
  };
  const server = (challenge) => ({
    [`POST /orders/${order.id}/pay/options`]: () => ({
      challenge, nonce: marketplace.nonce, transaction: marketplace.signed, pinAllowed: true,
    }),
    'POST /biometric/auth/verify': () => ({ verificationToken: 'vt_1' }),
    [`POST /orders/${order.id}/pay`]: (body) => ({ orderId: order.id, orderStatus: 'PAID', token: body.verificationToken }),
  });

  test('the challenge matches: signed once, verified, paid with the token', async () => {
    const { api, calls } = client(server(marketplace.challenge));
    const { signed, sign } = signer();
    const paid = await api.market.payFromWallet(order, { sign });
    assert.equal(signed.length, 1);
    assert.equal(signed[0].challenge, marketplace.challenge);
    assert.deepEqual(paid, { orderId: order.id, orderStatus: 'PAID', token: 'vt_1' });
    assert.deepEqual(calls, [`POST /orders/${order.id}/pay/options`, 'POST /biometric/auth/verify', `POST /orders/${order.id}/pay`]);
  });

  test('a challenge for anything else: refused, nothing signed', async () => {
    const { api, calls } = client(server(otherChallenge));
    const { signed, sign } = signer();
    await assert.rejects(api.market.payFromWallet(order, { sign }), { code: 'challenge_mismatch_local' });
    assert.deepEqual(signed, []);
    assert.deepEqual(calls, [`POST /orders/${order.id}/pay/options`]);
  });

  test('options for another total or seller: refused, nothing signed', async () => {
    for (const shown of [{ ...order, totals: { ...order.totals, total: order.totals.total - 1 } }, { ...order, sellerId: 'usr_other' }]) {
      const { api } = client(server(marketplace.challenge));
      const { signed, sign } = signer();
      await assert.rejects(api.market.payFromWallet(shown, { sign }), { code: 'challenge_mismatch_local' });
      assert.deepEqual(signed, []);
    }
  });
});

describe('airtime options', () => {
  const { kind: _kind, currency: _currency, supplierSlug: _slug, ...intent } = airtime.signed;
  const options = (challenge) => ({ challenge, nonce: airtime.nonce, transaction: airtime.signed });

  test('the challenge matches', async () => {
    await new Countersign().checkAirtimeOptions(options(airtime.challenge), intent);
  });

  test('another challenge, or another amount, is refused', async () => {
    await assert.rejects(new Countersign().checkAirtimeOptions(options(otherChallenge), intent), { code: 'challenge_mismatch_local' });
    await assert.rejects(new Countersign().checkAirtimeOptions(options(airtime.challenge), { ...intent, amount: intent.amount + 1 }),
      { code: 'challenge_mismatch_local' });
  });
});

describe('a transfer quote', () => {
  const quote = transfer.signed;
  const doc = (challenge) => ({
    id: quote.transferId, amount: quote.amount, status: 'AUTHORIZATION_REQUIRED', quote,
    challenge: { challenge, nonce: transfer.nonce },
  });
  const server = { [`POST /transfers/${quote.transferId}/authorization`]: () => ({ id: quote.transferId, status: 'AUTHORIZED' }) };

  test('the challenge matches: signed once and authorized', async () => {
    const { api, calls } = client(server);
    const { signed, sign } = signer();
    assert.deepEqual(await api.signTransfer(doc(transfer.challenge), { sign }), { id: quote.transferId, status: 'AUTHORIZED' });
    assert.equal(signed.length, 1);
    assert.deepEqual(calls, [`POST /transfers/${quote.transferId}/authorization`]);
  });

  test('a challenge for other fees: refused, nothing signed or sent', async () => {
    const { api, calls } = client(server);
    const { signed, sign } = signer();
    await assert.rejects(api.signTransfer(doc(otherChallenge), { sign }), { code: 'challenge_mismatch_local' });
    assert.deepEqual(signed, []);
    assert.deepEqual(calls, []);
  });
});
