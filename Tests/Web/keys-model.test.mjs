// Device keys (screens/keys-model.js) driven without a DOM: a strict fake client holds the keys;
// this browser's list of keys is in a fresh localStorage per test.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { DeviceKeys } from '../../Sources/CountersignServer/Resources/web/screens/keys-model.js';
import { localCredentials, rememberCredential } from '../../Sources/CountersignServer/Resources/web/screens/lock-model.js';
import { freshLocalStorage, strictFake } from './fakes.mjs';

freshLocalStorage();

const USER = 'usr_1';
const security = { newDeviceMaxAmount: 500000, currency: 'NGN' };
const key = (id, more = {}) => ({ id, algorithm: -7, createdAt: '2030-01-01T00:00:00Z', ...more });
const refusal = (status, code, more = {}) => Object.assign(new CountersignError(status, code, code), more);
const proof = { verificationId: 'pv_1', code: '123456' };
const noProof = () => assert.fail('no code is asked for here');

/** The model over a client whose keys are `keys` (registering adds cred_new), with `answers` besides. */
function keysWith(keys, answers = {}, { payment = false } = {}) {
  const client = strictFake('api', {
    credentials: () => ({ credentials: keys }),
    accountSecurity: () => security,
    ...answers,
  });
  const states = [];
  const model = new DeviceKeys(client.fake, { userId: USER, paymentPasskeys: async () => payment, onChange: (s) => states.push(s) });
  return { model, client, states, last: () => states.at(-1) };
}

describe('the list', () => {
  test('the keys, which this browser holds, the newest cooling-off; keys revoked elsewhere forgotten here', async () => {
    rememberCredential(USER, 'cred_gone');
    rememberCredential(USER, 'cred_a');
    const { model, last } = keysWith([key('cred_a', { coolingOffUntil: '2030-01-02T00:00:00Z' }),
      key('cred_b', { coolingOffUntil: '2030-01-03T00:00:00Z' }), key('cred_c')]);
    await model.load();
    assert.deepEqual(last().here, ['cred_a']);
    assert.deepEqual(localCredentials(USER), ['cred_a']);
    assert.equal(last().coolingUntil, '2030-01-03T00:00:00Z');
    assert.deepEqual([last().kind, last().security, last().needsCode, last().done], ['ready', security, false, null]);
  });

  test('without the account\'s security the list still loads; without keys, no cooling-off', async () => {
    const { model, last } = keysWith([], { accountSecurity: () => { throw refusal(500, 'internal_error'); } });
    await model.load();
    assert.deepEqual([last().credentials, last().security, last().coolingUntil], [[], null, null]);
  });
});

describe('enrolling', () => {
  test('a PIN that is not 4 to 6 digits: refused on its field, nothing sent', async () => {
    const { model, client } = keysWith([]);
    await assert.rejects(model.enrol('12', noProof), { field: 'pin' });
    assert.deepEqual(client.names(), []);
  });

  test('with the PIN: registered, remembered here, the list again', async () => {
    const keys = [];
    const { model, client, last } = keysWith(keys, {
      registerPasskey: () => {
        keys.push(key('cred_new'));
        return { credentialId: 'cred_new' };
      },
    });
    await model.enrol('4827', noProof);
    assert.deepEqual(client.calls[0], ['registerPasskey', { pin: '4827' }]);
    assert.deepEqual(last().here, ['cred_new']);
    assert.deepEqual(localCredentials(USER), ['cred_new']);
    assert.equal(last().done, 'added');
  });

  test('with a key the user has: no PIN in the request', async () => {
    const { model, client } = keysWith([key('cred_a')], { registerPasskey: () => ({ credentialId: 'cred_new' }) });
    await model.enrol(null, noProof);
    assert.deepEqual(client.calls[0], ['registerPasskey', {}]);
  });

  test('a payment passkey where the browser has Secure Payment Confirmation, else an ordinary one', async () => {
    let tries = 0;
    const { model, client } = keysWith([], {
      registerPasskey: () => {
        if (tries++ === 0) throw new DOMException('no', 'NotSupportedError');
        return { credentialId: 'cred_new' };
      },
    }, { payment: true });
    await model.enrol('4827', noProof);
    assert.deepEqual(client.calls.filter(([n]) => n === 'registerPasskey').map(([, body]) => body),
      [{ pin: '4827', payment: true }, { pin: '4827' }]);
  });

  test('the server wants a code: the state says so; the code goes with the PIN, an ordinary passkey, then no more', async () => {
    const { model, client, states, last } = keysWith([], {
      registerPasskey: (body) => {
        if (!body.code) throw refusal(401, 'phone_code_required');
        return { credentialId: 'cred_new' };
      },
    }, { payment: true });
    await model.enrol('4827', noProof);
    assert.deepEqual([last().needsCode, last().done], [true, 'codeNeeded']);
    assert.equal((await model.enrol('4827', () => null)).done, 'codeNeeded', 'no code yet: nothing sent');
    await model.enrol('4827', () => proof);
    assert.deepEqual(client.calls.filter(([n]) => n === 'registerPasskey').at(-1), ['registerPasskey', { pin: '4827', ...proof }]);
    assert.deepEqual([last().needsCode, last().done], [false, 'added']);
    assert.equal(states.length, 2);
  });

  test('refusals in the screen\'s words, on the code\'s field or the form', async () => {
    const cases = [
      [refusal(401, 'invalid_code'), { field: 'code', code: 'invalid_code' }],
      [refusal(403, 'device_cooling_off', { retryAfter: 3600 }),
        { code: 'device_cooling_off', message: /^A device joined your account recently, so a passkey cannot be added yet: it can in 60 minutes\. / }],
      [refusal(403, 'device_cooling_off'), { message: /^A device joined your account recently, so a passkey cannot be added yet\. / }],
      [new DOMException('no', 'NotAllowedError'), { message: 'Adding the passkey was cancelled. Nothing was added.' }],
      [new DOMException('again', 'InvalidStateError'), { message: 'This device already holds one of your keys.' }],
      [refusal(423, 'pin_locked', { retryAfter: 60 }), { code: 'pin_locked', message: /^Too many wrong PINs/ }],
      [refusal(401, 'authorization_failed'), { code: 'authorization_failed', status: 401 }],
    ];
    for (const [error, expected] of cases) {
      const { model, states } = keysWith([], { registerPasskey: () => { throw error; } });
      await assert.rejects(model.enrol('4827', noProof), expected, String(error.code ?? error.name));
      assert.deepEqual(states, []);
      assert.deepEqual(localCredentials(USER), []);
    }
  });
});

describe('revoking', () => {
  test('revoked on the server and forgotten here, the list again', async () => {
    rememberCredential(USER, 'cred_a');
    let keys = [key('cred_a')];
    const { model, client, last } = keysWith(null, {
      credentials: () => ({ credentials: keys }),
      revokeCredential: () => { keys = []; },
    });
    await model.revoke('cred_a');
    assert.deepEqual(client.calls[0], ['revokeCredential', 'cred_a']);
    assert.deepEqual([localCredentials(USER), last().credentials, last().done], [[], [], 'revoked']);
  });

  test('refused: rejects, the key kept here', async () => {
    rememberCredential(USER, 'cred_a');
    const { model, states } = keysWith([key('cred_a')], { revokeCredential: () => { throw refusal(404, 'unknown_credential'); } });
    await assert.rejects(model.revoke('cred_a'), { code: 'unknown_credential' });
    assert.deepEqual([localCredentials(USER), states], [['cred_a'], []]);
  });
});
