// The Security screen's model (screens/security-model.js) driven without a DOM: a strict fake client
// holds the account, its devices and activity; the code steps are functions.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { SecurityScreen } from '../../Sources/CountersignServer/Resources/web/screens/security-model.js';
import { strictFake } from './fakes.mjs';

const account = { phone: '+2348012345678', phoneVerified: true };
const here = { id: 'dev_here', current: true };
const there = { id: 'dev_there', current: false };
const newCode = { verificationId: 'pv_new', code: '111111' };
const oldCode = { verificationId: 'pv_old', code: '222222' };
const fields = { newCode: () => newCode, pin: '4827', oldCode: () => oldCode };
const noCode = () => assert.fail('no code is asked for yet');
const refusal = (status, code, more = {}) => Object.assign(new CountersignError(status, code, code), more);

/** The screen over a client whose account reads as `account`, with `answers` besides. */
function screenWith(answers = {}) {
  let devices = [here, there];
  const client = strictFake('api', {
    accountSecurity: () => account,
    devices: () => ({ devices }),
    activity: () => ({ events: [{ kind: 'signed_up', detail: 'Signed up', at: '2030-01-01T00:00:00Z' }] }),
    forgetDevice: (id) => { devices = devices.filter((d) => d.id !== id); },
    ...answers,
  });
  const states = [];
  const counts = { refreshed: 0, signedOut: 0 };
  const model = new SecurityScreen(client.fake, {
    refreshUser: async () => { counts.refreshed += 1; },
    signOut: async () => { counts.signedOut += 1; },
    onChange: (s) => states.push(s),
  });
  return { model, client, states, counts, last: () => states.at(-1) };
}

test('the account, its devices and its activity, read together', async () => {
  const { model, last } = screenWith();
  await model.load();
  assert.deepEqual([last().kind, last().security, last().devices, last().events.length, last().done], ['ready', account, [here, there], 1, null]);
});

describe('remembered devices', () => {
  test('another device forgotten: the list again, saying so', async () => {
    const { model, client, last, counts } = screenWith();
    await model.load();
    await model.forgetDevice(there);
    assert.deepEqual(client.calls.find(([n]) => n === 'forgetDevice'), ['forgetDevice', 'dev_there']);
    assert.deepEqual([last().done, last().devices, counts.signedOut], ['deviceForgotten', [here], 0]);
  });

  test('this device forgotten: signed out here, nothing read again', async () => {
    const { model, client, states, counts } = screenWith();
    await model.forgetDevice(here);
    assert.deepEqual([states.map((s) => s.kind), counts.signedOut], [['signedOut'], 1]);
    assert.deepEqual(client.names(), ['forgetDevice']);
  });

  test('refused: rejects, the list as it was', async () => {
    const { model, states } = screenWith({ forgetDevice: () => { throw refusal(404, 'unknown_device'); } });
    await assert.rejects(model.forgetDevice(there), { code: 'unknown_device' });
    assert.deepEqual(states, []);
  });
});

describe('a change of number', () => {
  test('each part in order, nothing sent until all are there', async () => {
    const { model, client } = screenWith();
    assert.equal(await model.changeNumber({ newCode: () => null, pin: '', oldCode: noCode }), null);
    await assert.rejects(model.changeNumber({ ...fields, pin: '12', oldCode: noCode }), { field: 'pin' });
    assert.equal(await model.changeNumber({ ...fields, oldCode: () => null }), null);
    assert.deepEqual(client.names(), []);
  });

  test('both codes and the PIN: moved, the profile reloaded, the screen again with the new number', async () => {
    const { model, client, counts, last } = screenWith({ changePhone: () => ({ phone: '+2348099999999' }) });
    await model.changeNumber(fields);
    assert.deepEqual(client.calls[0], ['changePhone', { ...newCode, stepUp: { pin: '4827', ...oldCode } }]);
    assert.equal(counts.refreshed, 1);
    assert.deepEqual([last().done, last().phone], ['numberChanged', '+2348099999999']);
  });

  test('refusals on the form: a wrong code names neither, a locked PIN says until when', async () => {
    const other = refusal(409, 'phone_taken');
    for (const [error, expected] of [
      [refusal(401, 'invalid_code', { traceId: 't1' }), (e) => !e.field && / Check both codes\.$/.test(e.message) && e.traceId === 't1'],
      [refusal(423, 'pin_locked', { retryAfter: 60 }), { code: 'pin_locked', message: /^Too many wrong PINs/ }],
      [other, (e) => e === other],
    ]) {
      const { model, states, counts } = screenWith({ changePhone: () => { throw error; } });
      await assert.rejects(model.changeNumber(fields), expected, error.code);
      assert.deepEqual([states, counts.refreshed], [[], 0]);
    }
  });
});
