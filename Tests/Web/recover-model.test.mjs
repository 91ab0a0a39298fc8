// The forgotten PIN (screens/recover-model.js) driven without a DOM: a strict fake client, the code
// step as a function, a fresh sessionStorage for the unlocked mark.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { isUnlocked } from '../../Sources/CountersignServer/Resources/web/screens/lock-model.js';
import { PinReset } from '../../Sources/CountersignServer/Resources/web/screens/recover-model.js';
import { freshSessionStorage, strictFake } from './fakes.mjs';

freshSessionStorage();

const proof = { verificationId: 'pv_1', code: '123456' };
const fields = { proof: () => proof, pin: '4827', again: '4827' };
const refusal = (status, code) => new CountersignError(status, code, code);

/** The reset over a client with `answers`; the new session is usr_1's unless `user` says otherwise. */
function resetWith(answers, { user = { userId: 'usr_1' } } = {}) {
  const client = strictFake('api', answers);
  const states = [];
  const model = new PinReset(client.fake, { refreshUser: async () => user, onChange: (s) => states.push(s) });
  return { model, client, states };
}

describe('the form', () => {
  test('no code yet, a PIN not 4 to 6 digits, two that differ: nothing sent', async () => {
    const { model, client } = resetWith({});
    assert.equal((await model.reset({ ...fields, proof: () => null })).kind, 'form');
    await assert.rejects(model.reset({ ...fields, pin: '12', again: '12' }), { field: 'pin' });
    await assert.rejects(model.reset({ ...fields, again: '4828' }), { field: 'again' });
    assert.deepEqual(client.names(), []);
  });

  test('the server\'s refusals: the code on its field, a weak PIN on its own, the rest on the form', async () => {
    const other = refusal(404, 'unknown_user');
    for (const [error, expected] of [[refusal(401, 'code_expired'), { field: 'code', code: 'code_expired' }],
      [refusal(422, 'weak_pin'), { field: 'pin', code: 'weak_pin' }], [other, (e) => e === other]]) {
      const { model, states } = resetWith({ resetPin: () => { throw error; } });
      await assert.rejects(model.reset(fields), expected);
      assert.deepEqual(states, []);
      assert.ok(!isUnlocked('usr_1'));
    }
  });
});

describe('done', () => {
  test('the new PIN with the code; signed in and unlocked here; until when PIN payments wait', async () => {
    const { model, client, states } = resetWith({
      resetPin: () => ({}),
      accountSecurity: () => ({ pinCoolingOffUntil: '2030-01-02T00:00:00Z' }),
    });
    await model.reset(fields);
    assert.deepEqual(client.calls[0], ['resetPin', { ...proof, newPin: '4827' }]);
    assert.deepEqual(states, [{ kind: 'done', coolingUntil: '2030-01-02T00:00:00Z' }]);
    assert.ok(isUnlocked('usr_1'));
  });

  test('the account\'s security unreadable, or no session: done without a date, nothing unlocked', async () => {
    const { model, states } = resetWith({
      resetPin: () => ({}),
      accountSecurity: () => { throw refusal(500, 'internal_error'); },
    }, { user: null });
    await model.reset(fields);
    assert.deepEqual(states, [{ kind: 'done', coolingUntil: null }]);
    assert.ok(!isUnlocked('usr_1'));
  });
});
