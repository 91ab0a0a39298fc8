// The dashboard's screen model (screens/home-model.js) driven without a DOM, over a strict fake
// client: the balances and history, a refresh that fails, and the history's next pages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { HomeModel, PAGE } from '../../Sources/CountersignServer/Resources/web/screens/home-model.js';
import { strictFake } from './fakes.mjs';

const wallet = { currency: 'NGN', balance: 5000, cashback: 0 };
const tx = (id) => ({ transactionId: id, type: 'funding', status: 'completed', amount: 100, currency: 'NGN' });
const lines = (from, n) => Array.from({ length: n }, (_, i) => tx(`t${from + i}`));
const down = () => { throw new CountersignError(503, 'unavailable', 'no'); };

/** The model over a fake client answering `answers`, recording each state. */
function home(answers) {
  const client = strictFake('api', { wallet: () => wallet, ...answers });
  const states = [];
  const at = new Date('2030-01-01T10:00:00Z');
  const model = new HomeModel(client.fake, { onChange: (s) => states.push(s), now: () => at });
  return { model, client, states, at };
}

describe('the dashboard', () => {
  test('the balances and the first page, with where the next starts and when', async () => {
    const { model, client, states, at } = home({ transactions: () => ({ transactions: lines(0, 10), nextCursor: 'c1' }) });
    await model.refresh();
    assert.deepEqual(client.calls.find(([n]) => n === 'transactions'), ['transactions', { limit: PAGE }]);
    assert.deepEqual(states.map((s) => s.kind), ['shown']);
    assert.equal(states[0].wallet, wallet);
    assert.equal(states[0].transactions.length, 10);
    assert.equal(states[0].cursor, 'c1');
    assert.equal(states[0].updatedAt, at);
    assert.equal(states[0].error, null);
  });

  test('the first read fails: the failed state', async () => {
    const { model, states } = home({ transactions: down });
    await model.refresh();
    assert.equal(states.at(-1).kind, 'failed');
    assert.equal(states.at(-1).error.code, 'unavailable');
  });

  test('a later refresh fails: what was shown stays, with the error; the next one clears it', async () => {
    let fail = false;
    const { model, states } = home({ transactions: () => (fail ? down() : { transactions: lines(0, 2) }) });
    await model.refresh();
    fail = true;
    await model.refresh();
    assert.equal(states.at(-1).kind, 'shown');
    assert.equal(states.at(-1).transactions.length, 2);
    assert.equal(states.at(-1).error.code, 'unavailable');
    fail = false;
    await model.refresh();
    assert.equal(states.at(-1).error, null);
  });

  test('more: the next page appended; a refresh then reads as many lines as are shown', async () => {
    const pages = { undefined: { transactions: lines(0, 10), nextCursor: 'c1' }, c1: { transactions: lines(10, 5) } };
    const { model, client, states } = home({ transactions: ({ cursor }) => pages[cursor] });
    await model.refresh();
    await model.more();
    assert.deepEqual(client.calls.at(-1), ['transactions', { limit: PAGE, cursor: 'c1' }]);
    assert.equal(states.at(-1).transactions.length, 15);
    assert.equal(states.at(-1).transactions[14].transactionId, 't14');
    assert.equal(states.at(-1).cursor, null);
    await model.more();
    assert.equal(client.names().filter((n) => n === 'transactions').length, 2, 'no cursor: nothing more asked');
    pages.undefined = { transactions: lines(0, 15) };
    await model.refresh();
    assert.deepEqual(client.calls.at(-1)[1], { limit: 15 });
  });

  test('more refused: rejects, the history as it was', async () => {
    const { model, states } = home({ transactions: ({ cursor }) => (cursor ? down() : { transactions: lines(0, 10), nextCursor: 'c1' }) });
    await model.refresh();
    await assert.rejects(model.more(), { code: 'unavailable' });
    assert.equal(states.length, 1);
    assert.equal(model.state.cursor, 'c1');
  });

  test('stopped: nothing more drawn', async () => {
    const { model, states } = home({ transactions: () => ({ transactions: [] }) });
    model.stop();
    await model.refresh();
    assert.deepEqual(states, []);
  });
});
