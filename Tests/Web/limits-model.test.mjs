// The spending limits' screen model (screens/limits-model.js) driven without a DOM, over a strict fake
// client: lowering applies at once, raising asks the passkey, and every refusal rejects in place.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { LimitsModel } from '../../Sources/CountersignServer/Resources/web/screens/limits-model.js';
import { strictFake } from './fakes.mjs';

const daily = { kind: 'daily', limit: 100000, used: 0, remaining: 100000, tierLimit: 500000 };
const limits = (l = daily) => ({ tier: 'tier1', raiseDelaySeconds: 86400, currencies: [{ currency: 'NGN', limits: [l] }] });

/** The model over a fake client answering `answers`, recording each state. */
async function shown(answers, assert_ = async () => ({ id: 'cred' })) {
  const client = strictFake('api', { limits: () => limits(), ...answers });
  const states = [];
  const model = new LimitsModel(client.fake, { assert: assert_, onChange: (s) => states.push(s) });
  await model.load();
  return { model, client, states, kinds: () => states.map((s) => s.kind) };
}

describe('the limits', () => {
  test('read and shown, with no form open', async () => {
    const { states, kinds } = await shown({});
    assert.deepEqual(kinds(), ['shown']);
    assert.equal(states[0].limits.tier, 'tier1');
    assert.equal(states[0].editing, null);
  });

  test('unreadable: the failed state with the error', async () => {
    const { states } = await shown({ limits: () => { throw new CountersignError(500, 'internal', 'no'); } });
    assert.equal(states.at(-1).kind, 'failed');
    assert.equal(states.at(-1).error.code, 'internal');
  });

  test('a form opens on one limit; cancel reads them again and closes it', async () => {
    const { model, client, states } = await shown({});
    model.edit('NGN', 'daily');
    assert.deepEqual(states.at(-1).editing, { currency: 'NGN', kind: 'daily' });
    await model.cancel();
    assert.equal(states.at(-1).editing, null);
    assert.deepEqual(client.names(), ['limits', 'limits']);
  });

  test('nothing drawn once stopped', async () => {
    const { model, states } = await shown({});
    model.stop();
    await model.load();
    assert.equal(states.length, 1);
  });
});

describe('a change', () => {
  test('lowered: no passkey, applies now', async () => {
    const { model, client, states } = await shown({ setLimit: () => ({}) });
    model.edit('NGN', 'daily');
    await model.save('500');
    assert.deepEqual(client.calls[1], ['setLimit', { currency: 'NGN', kind: 'daily', amount: 50000 }]);
    assert.equal(states.at(-1).kind, 'shown');
    assert.equal(states.at(-1).editing, null);
    assert.match(states.at(-1).notice, /applies now/);
  });

  test('0 is a limit of nothing', async () => {
    const { model, client } = await shown({ setLimit: () => ({}) });
    model.edit('NGN', 'daily');
    await model.save('0');
    assert.equal(client.calls[1][1].amount, 0);
  });

  test('raised: the passkey signs the step-up options, the notice says it waits', async () => {
    let signed = null;
    const { model, client, states } = await shown({ stepUpOptions: () => ({ challenge: 'c' }), setLimit: () => ({}) },
      async (options) => { signed = options; return { id: 'cred' }; });
    model.edit('NGN', 'daily');
    await model.save('2000');
    assert.deepEqual(signed, { challenge: 'c' });
    assert.deepEqual(client.names(), ['limits', 'stepUpOptions', 'setLimit', 'limits']);
    assert.deepEqual(client.calls[2][1].stepUp, { id: 'cred' });
    assert.match(states.at(-1).notice, /waiting period/);
  });

  test('an amount that is not one, or over the tier, is refused before any call', async () => {
    const { model, client } = await shown({});
    model.edit('NGN', 'daily');
    await assert.rejects(model.save('abc'), { message: /at most two decimals/, field: 'amount' });
    await assert.rejects(model.save('-1'), { field: 'amount' });
    await assert.rejects(model.save('6000'), { message: /tier allows at most/, field: 'amount' });
    assert.deepEqual(client.names(), ['limits']);
    assert.deepEqual(model.state.editing, { currency: 'NGN', kind: 'daily' });
  });

  test('the passkey cancelled: refused in place, nothing saved', async () => {
    const cancelled = Object.assign(new Error('no'), { name: 'NotAllowedError' });
    const { model, client } = await shown({ stepUpOptions: () => ({}) }, async () => { throw cancelled; });
    model.edit('NGN', 'daily');
    await assert.rejects(model.save('2000'), { message: /cancelled the passkey/ });
    assert.deepEqual(client.names(), ['limits', 'stepUpOptions']);
    assert.equal(model.state.kind, 'shown');
  });

  test('the server refuses: rejects with its error, the form stays open', async () => {
    const { model } = await shown({ setLimit: () => { throw new CountersignError(409, 'limit_exceeded', 'no'); } });
    model.edit('NGN', 'daily');
    await assert.rejects(model.save('500'), { code: 'limit_exceeded' });
    assert.deepEqual(model.state.editing, { currency: 'NGN', kind: 'daily' });
  });

  test('saving with no form open is refused', async () => {
    const { model } = await shown({});
    await assert.rejects(model.save('500'), /No limit is being changed/);
  });
});
