// The operator console's screen models (screens/operator-model.js) driven without a DOM, over a
// strict fake client: the console (numbers, audit, search) and one user's actions, each with the
// operator's PIN, the ones that cannot be undone asked first through a scripted `confirm`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { ConsoleModel, OperatorUserModel } from '../../Sources/CountersignServer/Resources/web/screens/operator-model.js';
import { strictFake } from './fakes.mjs';

const overview = { users: 3, lockedAccounts: 1, lastAudit: { passed: true, ranAt: '2030-01-01T00:00:00Z', via: 'cli' } };
const refused = (status, code, retryAfter = null) => new CountersignError(status, code, 'no', retryAfter);

describe('the console', () => {
  /** The console over a fake client, loaded with `prefix`; `went` records navigations. */
  async function console_(answers = {}, prefix = null) {
    const client = strictFake('api', { operatorOverview: () => overview, operatorActions: () => ({ actions: [{ action: 'run_audit' }] }), ...answers });
    const states = [];
    const went = [];
    const model = new ConsoleModel(client.fake, { navigate: (path, opts) => went.push([path, opts]), onChange: (s) => states.push(s) });
    await model.load(prefix);
    return { model, client, states, went };
  }

  test('the numbers, the last audit and the action log; no search without a number', async () => {
    const { states, client } = await console_();
    assert.deepEqual(states.map((s) => s.kind), ['shown']);
    assert.equal(states[0].overview, overview);
    assert.equal(states[0].audit, overview.lastAudit);
    assert.deepEqual(states[0].actions, [{ action: 'run_audit' }]);
    assert.equal(states[0].found, null);
    assert.deepEqual(client.names().sort(), ['operatorActions', 'operatorOverview']);
  });

  test('not an operator: the load rejects', async () => {
    await assert.rejects(console_({ operatorOverview: () => { throw refused(403, 'not_operator'); } }), { code: 'not_operator' });
  });

  test('a number in the address: the users found', async () => {
    const users = [{ userId: 'u1', name: 'Ada' }];
    const { states, client } = await console_({ operatorSearchUsers: () => ({ users }) }, '0803123');
    assert.deepEqual(client.calls.at(-1), ['operatorSearchUsers', '0803123']);
    assert.equal(states.at(-1).found, users);
    assert.equal(states.at(-1).searchError, null);
  });

  test('a search the server refuses: its error in the state, the console still shown', async () => {
    const { states } = await console_({ operatorSearchUsers: () => { throw refused(400, 'invalid_phone'); } }, '0803123');
    assert.equal(states.at(-1).kind, 'shown');
    assert.equal(states.at(-1).searchError.code, 'invalid_phone');
    assert.equal(states.at(-1).found, null);
  });

  test('a search goes to the address without separators, replacing it', async () => {
    const { model, went } = await console_();
    model.search('  0803 123-4 ');
    assert.deepEqual(went, [['/operator?phone=08031234', { replace: true }]]);
  });

  test('what cannot be the start of a number is refused before any call', async () => {
    const { model, went } = await console_();
    for (const text of ['080', 'abc123456', '']) assert.throws(() => model.search(text), { field: 'phone' });
    assert.deepEqual(went, []);
  });

  test('the audit run: its result, the action log read again; a refusal rejects', async () => {
    const result = { passed: false, failedChecks: ['balanced'] };
    const { model, states, client } = await console_({ operatorRunAudit: () => result });
    await model.runAudit();
    assert.equal(states.at(-1).audit, result);
    assert.deepEqual(client.names().slice(-2), ['operatorRunAudit', 'operatorActions']);
    const other = await console_({ operatorRunAudit: () => { throw refused(403, 'not_operator'); } });
    await assert.rejects(other.model.runAudit(), { code: 'not_operator' });
    assert.equal(other.model.state.audit, overview.lastAudit);
  });
});

describe('a user', () => {
  const user = { userId: 'u1', name: 'Ada', phone: '+2348031234567', currency: 'NGN', balance: 0 };
  const after = { ...user, balance: 150000 };
  const yes = async () => true;
  const no = async () => false;

  /** The user's model over a fake client, loaded. */
  async function shown(answers = {}, me = 'op') {
    const client = strictFake('api', { operatorUser: () => user, ...answers });
    const states = [];
    const model = new OperatorUserModel(client.fake, 'u1', { me, onChange: (s) => states.push(s) });
    await model.load();
    return { model, client, states };
  }

  test('shown with no notice; the operator\'s own account is marked', async () => {
    const { states, model } = await shown();
    assert.deepEqual(states, [{ kind: 'shown', user, notice: null }]);
    assert.equal(model.own, false);
    assert.equal((await shown({}, 'u1')).model.own, true);
  });

  test('unlock and a tier: the call with the PIN, the user it answers, the notice', async () => {
    const { model, client, states } = await shown({ operatorUnlock: () => after, operatorAssignTier: () => after });
    assert.equal(await model.unlock('7305'), true);
    assert.deepEqual(client.calls.at(-1), ['operatorUnlock', 'u1', '7305']);
    assert.deepEqual(states.at(-1), { kind: 'shown', user: after, notice: 'Account unlocked.' });
    await model.assignTier('tier2', '7305');
    assert.deepEqual(client.calls.at(-1), ['operatorAssignTier', 'u1', { tier: 'tier2', pin: '7305' }]);
    assert.equal(states.at(-1).notice, 'Now in tier tier2.');
  });

  test('a PIN that is not 4 to 6 digits: refused before any call', async () => {
    const { model, client } = await shown();
    await assert.rejects(model.unlock('12'), { field: 'pin' });
    await assert.rejects(model.assignTier('tier2', ''), { field: 'pin' });
    await assert.rejects(model.revokeKey('k1', 'Synced passkey added today', 'abcd', yes), { field: 'pin' });
    assert.deepEqual(client.names(), ['operatorUser']);
  });

  test('a wrong PIN: the server\'s refusal; a PIN locked: reworded with when it unlocks', async () => {
    let error = refused(401, 'step_up_failed');
    const { model } = await shown({ operatorUnlock: () => { throw error; } });
    await assert.rejects(model.unlock('1111'), { code: 'step_up_failed' });
    error = refused(423, 'account_locked', 900);
    await assert.rejects(model.unlock('1111'), (e) => e.code === 'account_locked' && /PIN is locked. Try again/.test(e.message));
    assert.equal(model.state.notice, null);
  });

  test('a key revoked after the question naming it; not revoked on a no', async () => {
    const asked = [];
    const { model, client, states } = await shown({ operatorRevokeKey: () => after });
    assert.equal(await model.revokeKey('k1', 'Synced passkey added today', '7305', async (q) => { asked.push(q); return false; }), false);
    assert.deepEqual(client.names(), ['operatorUser']);
    assert.match(asked[0].message, /^Revoke the synced passkey added today\? .* for Ada;/);
    assert.equal(await model.revokeKey('k1', 'Synced passkey added today', '7305', yes), true);
    assert.deepEqual(client.calls.at(-1), ['operatorRevokeKey', 'u1', 'k1', '7305']);
    assert.equal(states.at(-1).notice, 'Key revoked.');
  });

  describe('funding', () => {
    const fields = { amount: '1,500.00', currency: 'NGN', pin: '7305' };

    test('asked with the amount and the wallet, credited once per key, the user read again', async () => {
      const keys = [];
      const asked = [];
      const { model, client, states } = await shown({
        operatorFund: (_id, _body, { idempotencyKey }) => { keys.push(idempotencyKey); return { amount: 150000, currency: 'NGN', balance: 150000 }; },
      });
      assert.equal(await model.fund(fields, async (q) => { asked.push(q); return true; }), true);
      assert.match(asked[0].confirm, /^Credit ₦1,500\.00$/);
      assert.match(asked[0].message, /to Ada's NGN wallet \(\+2348031234567\)/);
      assert.deepEqual(client.calls[1].slice(0, 3), ['operatorFund', 'u1', { pin: '7305', amount: 150000, currency: 'NGN' }]);
      assert.deepEqual(client.names(), ['operatorUser', 'operatorFund', 'operatorUser']);
      assert.match(states.at(-1).notice, /^Funded ₦1,500\.00\. The wallet holds ₦1,500\.00\.$/);
      await model.fund(fields, yes);
      assert.notEqual(keys[0], keys[1], 'a funding done: the next takes a new key');
    });

    test('a retry after an error reuses the key; a new amount takes a new one', async () => {
      const keys = [];
      const { model } = await shown({ operatorFund: (_id, _body, { idempotencyKey }) => { keys.push(idempotencyKey); throw refused(503, 'unavailable'); } });
      await assert.rejects(model.fund(fields, yes), { code: 'unavailable' });
      await assert.rejects(model.fund(fields, yes), { code: 'unavailable' });
      model.newFunding();
      await assert.rejects(model.fund(fields, yes), { code: 'unavailable' });
      assert.equal(keys[0], keys[1]);
      assert.notEqual(keys[1], keys[2]);
    });

    test('a no: nothing credited, and said so', async () => {
      const { model, client, states } = await shown();
      assert.equal(await model.fund(fields, no), false);
      assert.deepEqual(client.names(), ['operatorUser']);
      assert.equal(states.at(-1).notice, 'Nothing was credited.');
    });

    test('no amount, then no PIN: refused in that order before any question', async () => {
      const { model } = await shown();
      const never = async () => assert.fail('asked');
      await assert.rejects(model.fund({ ...fields, amount: '0', pin: '' }, never), { field: 'amount' });
      await assert.rejects(model.fund({ ...fields, amount: 'x' }, never), { field: 'amount' });
      await assert.rejects(model.fund({ ...fields, pin: '' }, never), { field: 'pin' });
    });
  });

  describe('reversing', () => {
    const funding = { type: 'funding', transactionId: 'wt_1', amount: 250000, currency: 'NGN' };
    const transfer = { type: 'transfer_out', transactionId: 'wt_2', reference: 'tr_9', amount: 1000, currency: 'NGN' };
    const fields = { reason: ' Funded the wrong account ', pin: '7305' };

    test('a funding by its line, a transfer by its reference, with the reason; the user read again', async () => {
      const asked = [];
      const { model, client, states } = await shown({ operatorReverseFunding: () => ({}), operatorReverseTransfer: () => ({}) });
      assert.equal(await model.reverse(funding, fields, async (q) => { asked.push(q); return true; }), true);
      assert.deepEqual(client.calls[1], ['operatorReverseFunding', 'wt_1', { pin: '7305', reason: 'Funded the wrong account' }]);
      assert.match(asked[0].message, /Take the ₦2,500\.00 funding back from Ada's wallet/);
      assert.equal(states.at(-1).notice, 'Reversed: both sides see it in their history.');
      await model.reverse(transfer, fields, async (q) => { asked.push(q); return true; });
      assert.deepEqual(client.calls[3], ['operatorReverseTransfer', 'tr_9', { pin: '7305', reason: 'Funded the wrong account' }]);
      assert.match(asked[1].message, /^Reverse transfer tr_9\?/);
    });

    test('no reason, then no PIN: refused before any question; a no reverses nothing', async () => {
      const { model, client } = await shown();
      const never = async () => assert.fail('asked');
      await assert.rejects(model.reverse(funding, { reason: '  ', pin: '' }, never), { field: 'reason' });
      await assert.rejects(model.reverse(funding, { ...fields, pin: '1' }, never), { field: 'pin' });
      assert.equal(await model.reverse(funding, fields, no), false);
      assert.deepEqual(client.names(), ['operatorUser']);
    });

    test('refused by the server: rejects with its error, no notice', async () => {
      const { model } = await shown({ operatorReverseFunding: () => { throw refused(409, 'already_reversed'); } });
      await assert.rejects(model.reverse(funding, fields, yes), { code: 'already_reversed' });
      assert.equal(model.state.notice, null);
    });
  });
});
