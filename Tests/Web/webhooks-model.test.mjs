// The console's webhooks screen model (screens/webhooks-model.js) driven without a DOM, over a strict
// fake client: the endpoints, adding one (its secret shown once), the delivery log and the actions.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { WebhooksModel } from '../../Sources/CountersignServer/Resources/web/screens/webhooks-model.js';
import { strictFake } from './fakes.mjs';

const endpoint = { id: 'wh_1', url: 'https://erp.example/hooks', events: ['*'], enabled: true };

/** The model over a fake client answering `answers`, loaded, recording each state. */
async function loaded(answers = {}) {
  const client = strictFake('api', { operatorWebhooks: () => ({ endpoints: [endpoint] }), ...answers });
  const states = [];
  const model = new WebhooksModel(client.fake, { onChange: (s) => states.push(s) });
  await model.load();
  return { model, client, states };
}

const refused = (status, code) => new CountersignError(status, code, 'no');

describe('the endpoints', () => {
  test('read and shown, with no log, secret or notice', async () => {
    const { states } = await loaded();
    assert.deepEqual(states.map((s) => s.kind), ['shown']);
    assert.deepEqual(states[0].endpoints, [endpoint]);
    assert.equal(states[0].log, null);
    assert.equal(states[0].secret, null);
    assert.equal(states[0].notice, null);
  });

  test('not an operator: the load rejects', async () => {
    const client = strictFake('api', { operatorWebhooks: () => { throw refused(403, 'not_operator'); } });
    const model = new WebhooksModel(client.fake, {});
    await assert.rejects(model.load(), { code: 'not_operator' });
    assert.equal(model.state.kind, 'loading');
  });
});

describe('adding an endpoint', () => {
  const fields = { url: ' https://erp.example/hooks ', events: 'transfer.completed, , topup.completed', pin: '7305' };

  test('sends the trimmed URL and the events, shows the secret, reads the endpoints again', async () => {
    const { model, client, states } = await loaded({ operatorAddWebhook: () => ({ secret: 'whsec_1' }) });
    await model.add(fields);
    assert.deepEqual(client.calls[1], ['operatorAddWebhook',
      { url: 'https://erp.example/hooks', events: ['transfer.completed', 'topup.completed'], pin: '7305' }]);
    assert.deepEqual(client.names(), ['operatorWebhooks', 'operatorAddWebhook', 'operatorWebhooks']);
    assert.equal(states.at(-1).secret, 'whsec_1');
  });

  test('the secret is gone when the next add starts', async () => {
    const { model, states } = await loaded({ operatorAddWebhook: () => ({ secret: 'whsec_1' }) });
    await model.add(fields);
    await assert.rejects(model.add({ ...fields, pin: '' }));
    assert.equal(states.at(-1).secret, null);
  });

  for (const [name, wrong, field] of [
    ['an address that is not http(s)', { url: 'erp.example' }, 'url'],
    ['no events', { events: ' , ' }, 'events'],
    ['a PIN that is not 4 to 6 digits', { pin: '12' }, 'pin'],
  ]) {
    test(`${name}: refused on its field before any call`, async () => {
      const { model, client } = await loaded();
      await assert.rejects(model.add({ ...fields, ...wrong }), { field });
      assert.deepEqual(client.names(), ['operatorWebhooks']);
    });
  }

  test('the server refuses the address: rejects with its error, no secret', async () => {
    const { model } = await loaded({ operatorAddWebhook: () => { throw refused(422, 'webhook_url_refused'); } });
    await assert.rejects(model.add(fields), { code: 'webhook_url_refused' });
    assert.equal(model.state.secret, null);
  });
});

describe('an endpoint\'s actions', () => {
  test('the delivery log is shown for its endpoint', async () => {
    const attempts = [{ eventId: 'ev_1', eventType: 'transfer.completed', statusCode: 200 }];
    const { model, client, states } = await loaded({ operatorWebhookDeliveries: () => ({ attempts }) });
    await model.showLog('wh_1');
    assert.deepEqual(client.calls[1], ['operatorWebhookDeliveries', 'wh_1']);
    assert.deepEqual(states.at(-1).log, { endpointId: 'wh_1', attempts });
  });

  test('the log refused: rejects, none shown', async () => {
    const { model } = await loaded({ operatorWebhookDeliveries: () => { throw refused(404, 'not_found'); } });
    await assert.rejects(model.showLog('wh_1'), { code: 'not_found' });
    assert.equal(model.state.log, null);
  });

  for (const [action, args, call, notice] of [
    ['enable', ['wh_1'], 'operatorEnableWebhook', /Enabled/],
    ['remove', ['wh_1'], 'operatorRemoveWebhook', /Removed/],
    ['redeliver', ['wh_1', 'ev_1'], 'operatorRedeliverWebhook', /Queued/],
  ]) {
    test(`${action}: the call, its notice, the endpoints read again`, async () => {
      const { model, client, states } = await loaded({ [call]: () => ({}) });
      await model[action](...args);
      assert.deepEqual(client.calls[1], [call, ...args]);
      assert.deepEqual(client.names(), ['operatorWebhooks', call, 'operatorWebhooks']);
      assert.match(states.at(-1).notice, notice);
    });

    test(`${action} refused: rejects, no notice`, async () => {
      const { model, client } = await loaded({ [call]: () => { throw refused(403, 'not_operator'); } });
      await assert.rejects(model[action](...args), { code: 'not_operator' });
      assert.equal(model.state.notice, null);
      assert.deepEqual(client.names(), ['operatorWebhooks', call]);
    });
  }
});
