// The airtime payment's model (screens/airtime-model.js) driven without a DOM: a fake client answers
// what each test expects and fails loudly on any other call; fake passkeys sign or refuse.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { AirtimeFlow, readIntent } from '../../Sources/CountersignServer/Resources/web/screens/airtime-model.js';
import { strictFake } from './fakes.mjs';

const intent = { amount: 50000, productCode: 'AIRTIME_MTN', recipientPhone: '08012345678', useCashback: false };
const bare = { amount: 50000, productCode: 'AIRTIME_MTN', recipientPhone: '08012345678' };
const options = { challenge: 'c', nonce: 'n', transaction: { ...bare, kind: 'airtime' }, pinAllowed: true };
const receipt = { success: true, data: { transactionId: 'tx_1', amount: 50000, balance: 50000 } };
const refusal = (status, code) => new CountersignError(status, code, code);

/** A client whose calls are `answers` (a funded wallet by default); every call is in `calls`. */
function fakeClient(answers = {}) {
  const { fake, calls, names } = strictFake('api', { wallet: () => ({ balance: 100000, cashback: 0, currency: 'NGN' }), ...answers });
  return { api: fake, calls, names };
}

/** Passkeys that sign with `sign` (one signature by default) on a device with a platform authenticator. */
function passkeys({ supported = true, platform = true, sign = async () => ({ assertion: { id: 'cred' }, via: 'webauthn' }) } = {}) {
  return { supported: () => supported, platformAvailable: async () => platform, sign };
}

/** The flow over `client`, recording every state it shows. */
function flowWith(client, keys = passkeys()) {
  const states = [];
  const flow = new AirtimeFlow(client.api, { phone: '08012345678', passkeys: keys, onChange: (s) => states.push(s.kind), now: () => 1000 });
  return { flow, states };
}

describe('the form', () => {
  test('reads the intent in minor units', () => {
    assert.deepEqual(readIntent({ amount: '500', productCode: 'AIRTIME_MTN', recipientPhone: ' 08012345678 ', useCashback: true }),
      { intent: { ...intent, useCashback: true } });
  });

  test('refuses an amount out of bounds or a missing number, naming the field', () => {
    for (const amount of ['', '0.99', '500000.01', '1.234', 'ten']) {
      assert.equal(readIntent({ amount, productCode: 'AIRTIME_MTN', recipientPhone: '0801', useCashback: false }).field, 'amount', amount);
    }
    assert.equal(readIntent({ amount: '5', productCode: 'AIRTIME_MTN', recipientPhone: '  ', useCashback: false }).field, 'recipient');
  });

  test('a balance too low is refused on the form, before any options or gesture', async () => {
    const client = fakeClient({ wallet: () => ({ balance: 100, cashback: 0, currency: 'NGN' }) });
    const { flow, states } = flowWith(client);
    await assert.rejects(flow.continue(intent), { code: 'insufficient_funds' });
    assert.equal(flow.state.kind, 'form');
    assert.deepEqual(states, []);
    assert.deepEqual(client.names(), ['wallet']);
  });

  test('the cashback counts toward the balance when chosen', async () => {
    const client = fakeClient({
      wallet: () => ({ balance: 30000, cashback: 20000, currency: 'NGN' }),
      airtimeOptions: () => options, checkAirtimeOptions: () => undefined,
    });
    const { flow } = flowWith(client);
    await flow.continue({ ...intent, useCashback: true });
    assert.equal(flow.state.kind, 'review');
  });
});

describe('the passkey', () => {
  test('options checked against the intent, the review, then signed and paid once with the assertion', async () => {
    const client = fakeClient({
      airtimeOptions: () => options,
      checkAirtimeOptions: () => undefined,
      topUp: () => receipt,
    });
    const { flow, states } = flowWith(client);
    await flow.continue(intent);
    assert.deepEqual(flow.state, { kind: 'review', intent, options, pinAllowed: true });
    await flow.confirm();
    assert.deepEqual(states, ['review', 'processing', 'success']);
    assert.equal(flow.state.by, 'passkey');
    assert.deepEqual(client.names(), ['wallet', 'airtimeOptions', 'checkAirtimeOptions', 'topUp']);
    const [, askedFor] = client.calls[1];
    assert.deepEqual(askedFor, bare, 'the options cover the intent without useCashback');
    const [, paid, { idempotencyKey }] = client.calls[3];
    assert.deepEqual(paid, { ...intent, assertion: { id: 'cred' } });
    assert.ok(idempotencyKey);
  });

  test('the server describing another payment: refused, nothing signed', async () => {
    let signed = 0;
    const client = fakeClient({
      airtimeOptions: () => options,
      checkAirtimeOptions: () => { throw new CountersignError(0, 'challenge_mismatch_local', 'other'); },
    });
    const { flow } = flowWith(client, passkeys({ sign: async () => { signed += 1; return { assertion: {}, via: 'webauthn' }; } }));
    await flow.continue(intent);
    assert.equal(flow.state.kind, 'refused');
    assert.equal(flow.state.error.code, 'challenge_mismatch_local');
    assert.equal(signed, 0);
  });

  test('the user says no: cancelled, nothing paid, with the balance', async () => {
    const client = fakeClient({ airtimeOptions: () => options, checkAirtimeOptions: () => undefined });
    const no = async () => { throw new DOMException('no', 'NotAllowedError'); };
    const { flow } = flowWith(client, passkeys({ sign: no }));
    await flow.continue(intent);
    await flow.confirm();
    assert.equal(flow.state.kind, 'cancelled');
    assert.equal(flow.state.wallet.balance, 100000);
    assert.ok(!client.names().includes('topUp'));
  });

  test('a gesture failing otherwise rejects with the review kept', async () => {
    const client = fakeClient({ airtimeOptions: () => options, checkAirtimeOptions: () => undefined });
    const { flow } = flowWith(client, passkeys({ sign: async () => { throw new DOMException('odd', 'InvalidStateError'); } }));
    await flow.continue(intent);
    await assert.rejects(flow.confirm(), { name: 'InvalidStateError' });
    assert.equal(flow.state.kind, 'review');
  });

  test('the assertion refused (401): verify failed, nothing paid, and a retry starts over', async () => {
    const client = fakeClient({
      airtimeOptions: () => options, checkAirtimeOptions: () => undefined,
      topUp: () => { throw refusal(401, 'bad_signature'); },
    });
    const { flow } = flowWith(client);
    await flow.continue(intent);
    await flow.confirm();
    assert.equal(flow.state.kind, 'verifyFailed');
    await flow.retry();
    assert.equal(flow.state.kind, 'review');
  });

  test('locked (423): until when, from the server\'s retryAfter', async () => {
    const locked = Object.assign(refusal(423, 'payments_locked'), { retryAfter: 60 });
    const client = fakeClient({ airtimeOptions: () => { throw locked; } });
    const { flow } = flowWith(client);
    await flow.continue(intent);
    assert.equal(flow.state.kind, 'locked');
    assert.equal(flow.state.until, 1000 + 60000);
  });

  test('a top-up refused for the balance is a problem, in the app\'s words', async () => {
    const client = fakeClient({
      airtimeOptions: () => options, checkAirtimeOptions: () => undefined,
      topUp: () => { throw refusal(422, 'insufficient_funds'); },
    });
    const { flow } = flowWith(client);
    await flow.continue(intent);
    await flow.confirm();
    assert.equal(flow.state.kind, 'problem');
    assert.equal(flow.state.error.code, 'insufficient_funds');
    assert.match(flow.state.error.message, /Nothing was charged/);
  });

  test('the network failing to deliver: supplier failed', async () => {
    const client = fakeClient({
      airtimeOptions: () => options, checkAirtimeOptions: () => undefined,
      topUp: () => ({ success: false, message: 'Not delivered.', data: { balance: 100000 } }),
    });
    const { flow } = flowWith(client);
    await flow.continue(intent);
    await flow.confirm();
    assert.equal(flow.state.kind, 'supplierFailed');
  });

  test('stopped during the gesture: the prompt is withdrawn and nothing more is shown', async () => {
    let signal;
    const client = fakeClient({ airtimeOptions: () => options, checkAirtimeOptions: () => undefined });
    const sign = (_, opts) => new Promise((_resolve, reject) => {
      signal = opts.signal;
      opts.signal.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError')));
    });
    const { flow, states } = flowWith(client, passkeys({ sign }));
    await flow.continue(intent);
    const confirming = flow.confirm();
    flow.stop();
    await confirming;
    assert.ok(signal.aborted);
    assert.deepEqual(states, ['review']);
  });
});

describe('the PIN', () => {
  test('no platform authenticator: the PIN, with a passkey on another device offered', async () => {
    const client = fakeClient({ airtimeOptions: () => options });
    const { flow } = flowWith(client, passkeys({ platform: false }));
    await flow.continue(intent);
    assert.equal(flow.state.kind, 'pin');
    assert.equal(flow.state.offerPasskey, true);
  });

  test('no device key yet: the PIN, saying why', async () => {
    const client = fakeClient({ airtimeOptions: () => { throw refusal(422, 'no_registered_credential'); } });
    const { flow } = flowWith(client);
    await flow.continue(intent);
    assert.equal(flow.state.kind, 'pin');
    assert.match(flow.state.reason, /no device key/);
  });

  test('over the PIN allowance: only the passkey is offered', async () => {
    const client = fakeClient({ airtimeOptions: () => ({ ...options, pinAllowed: false }), checkAirtimeOptions: () => undefined });
    const { flow } = flowWith(client);
    await flow.continue(intent);
    assert.deepEqual([flow.state.kind, flow.state.pinAllowed], ['review', false]);
    flow.usePin();
    assert.equal(flow.state.kind, 'passkeyNeeded');
  });

  test('paid with the PIN from the form', async () => {
    const client = fakeClient({ airtimeOptions: () => options, buyAirtimeWithPin: () => receipt });
    const { flow, states } = flowWith(client);
    await flow.payWithPinInstead(intent);
    await flow.payWithPin('4827');
    assert.deepEqual(states, ['pin', 'success']);
    assert.equal(flow.state.by, 'PIN');
    const [, paid, pin] = client.calls.at(-1);
    assert.deepEqual([paid, pin], [intent, '4827']);
  });

  test('a PIN that is not 4 to 6 digits is refused here, nothing sent', async () => {
    const client = fakeClient({ airtimeOptions: () => options });
    const { flow } = flowWith(client);
    await flow.payWithPinInstead(intent);
    await assert.rejects(flow.payWithPin('12'), { field: 'pin' });
    assert.ok(!client.names().includes('buyAirtimeWithPin'));
  });

  test('a wrong PIN rejects in the app\'s words, the form kept', async () => {
    const client = fakeClient({ airtimeOptions: () => options, buyAirtimeWithPin: () => { throw refusal(401, 'authorization_failed'); } });
    const { flow } = flowWith(client);
    await flow.payWithPinInstead(intent);
    await assert.rejects(flow.payWithPin('0000'), { code: 'authorization_failed', message: /Check your PIN/ });
    assert.equal(flow.state.kind, 'pin');
  });

  test('the server asking for the passkey: passkey needed, and the PIN no longer offered', async () => {
    const client = fakeClient({ airtimeOptions: () => options, buyAirtimeWithPin: () => { throw refusal(403, 'strong_authentication_required'); } });
    const { flow } = flowWith(client);
    await flow.payWithPinInstead(intent);
    await flow.payWithPin('4827');
    assert.equal(flow.state.kind, 'passkeyNeeded');
    flow.usePin();
    assert.equal(flow.state.kind, 'passkeyNeeded');
  });
});
