// A transfer's screen model (screens/send-model.js) driven without a DOM: a strict fake client holds
// the transfer's document and its live stream; fake signatures accept or refuse.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { TransferWatch } from '../../Sources/CountersignServer/Resources/web/screens/send-model.js';
import { strictFake } from './fakes.mjs';

const quote = { transferId: 'tr_1', amount: 10000, currency: 'NGN', fees: [], totalFees: 50, total: 10050, expiresAt: '2030-01-01T00:00:00Z' };
const doc = (status, sequence, more = {}) => ({ id: 'tr_1', status, sequence, amount: 10000, currency: 'NGN', payeePhone: '+2348012345678', ...more });
const quoted = doc('AUTHORIZATION_REQUIRED', 3, { quote, challenge: { challenge: 'c', nonce: 'n' } });

/** A client whose transfer is `first`; `push(doc)` sends a version down the stream, `fail()` breaks it. */
function fakeClient(first, answers = {}) {
  const stream = { onDocument: null, onError: null, closed: false };
  const client = strictFake('api', { getTransfer: () => first, ...answers });
  // watchTransfer answers at once, as the client's does: the function that stops the stream.
  const watchTransfer = (id, onDocument, { onError }) => {
    client.calls.push(['watchTransfer', id]);
    Object.assign(stream, { onDocument, onError });
    return () => { stream.closed = true; };
  };
  const fake = new Proxy(client.fake, { get: (target, name) => (name === 'watchTransfer' ? watchTransfer : target[name]) });
  return { ...client, fake, stream, push: (next) => stream.onDocument(next), fail: () => stream.onError(new Error('gone')) };
}

/** The model over `client`, recording each state's kind. */
async function watching(client, sign = async () => ({ assertion: { id: 'cred' }, via: 'webauthn' })) {
  const states = [];
  const watch = new TransferWatch(client.fake, 'tr_1', { sign, onChange: (s) => states.push(s), pollInterval: 1 });
  await watch.start();
  return { watch, states, kinds: () => states.map((s) => s.kind) };
}

describe('the live document', () => {
  test('each newer version is drawn once, an older one never; the stream closes when final', async () => {
    const client = fakeClient(doc('PENDING_QUOTE', 1));
    const { kinds, watch } = await watching(client);
    client.push(doc('PENDING_QUOTE', 1));
    client.push(quoted);
    client.push(doc('PENDING_QUOTE', 2));
    client.push(doc('AUTHORIZED', 4));
    client.push(doc('SUCCESS', 5));
    assert.deepEqual(kinds(), ['preparing', 'quote', 'sending', 'verdict']);
    assert.ok(client.stream.closed);
    watch.stop();
  });

  test('a final document needs no stream', async () => {
    const client = fakeClient(doc('DECLINED', 4));
    const { kinds } = await watching(client);
    assert.deepEqual(kinds(), ['verdict']);
    assert.deepEqual(client.names(), ['getTransfer']);
  });

  test('the stream stopping: the document is polled until final', async () => {
    let polls = 0;
    const client = fakeClient(quoted, { getTransfer: () => (polls++ === 0 ? quoted : doc('EXPIRED', 4)) });
    const { kinds, watch } = await watching(client);
    client.fail();
    for (let i = 0; i < 50 && kinds().at(-1) !== 'verdict'; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    assert.deepEqual(kinds(), ['quote', 'verdict']);
    assert.equal(watch.poller, null, 'the polls stop at the final status');
  });
});

describe('the quote', () => {
  test('accepted: the passkey signs, the verdict says how', async () => {
    const client = fakeClient(quoted, {
      signTransfer: async (shown, { sign }) => {
        assert.equal(shown, quoted);
        await sign({ challenge: 'c' });
        return doc('AUTHORIZED', 4, { quote });
      },
    });
    const { watch, kinds, states } = await watching(client, async () => ({ assertion: {}, via: 'spc' }));
    await watch.accept();
    client.push(doc('SUCCESS', 5, { quote }));
    assert.deepEqual(kinds(), ['quote', 'sending', 'verdict']);
    assert.equal(states.at(-1).signedVia, 'spc');
  });

  test('the gesture declined: the transfer is cancelled, and the verdict says the passkey check failed', async () => {
    const client = fakeClient(quoted, {
      signTransfer: async () => { throw new DOMException('no', 'NotAllowedError'); },
      cancelTransfer: () => doc('CANCELLED', 4),
    });
    const { watch, states } = await watching(client);
    await watch.accept();
    assert.deepEqual([states.at(-1).kind, states.at(-1).doc.status, states.at(-1).localAuthFailed], ['verdict', 'CANCELLED', true]);
  });

  test('another failure: the quote again, with the error, as the server has it now', async () => {
    const refused = new CountersignError(409, 'quote_expired', 'expired');
    const client = fakeClient(quoted, { signTransfer: async () => { throw refused; } });
    const { watch, states } = await watching(client);
    await watch.accept();
    assert.deepEqual([states.at(-1).kind, states.at(-1).error], ['quote', refused]);
    assert.deepEqual(client.names(), ['getTransfer', 'watchTransfer', 'signTransfer', 'getTransfer']);
  });

  test('declined: the verdict; a refusal rejects with the quote kept', async () => {
    const client = fakeClient(quoted, { declineTransfer: () => doc('DECLINED', 4) });
    const { watch, kinds } = await watching(client);
    await watch.decline();
    assert.deepEqual(kinds(), ['quote', 'verdict']);

    const refusing = fakeClient(quoted, { declineTransfer: () => { throw new CountersignError(409, 'invalid_state', 'no'); } });
    const second = await watching(refusing);
    await assert.rejects(second.watch.decline(), { code: 'invalid_state' });
    assert.deepEqual(second.kinds(), ['quote']);
  });

  test('stopped during the gesture: the prompt is withdrawn, the stream closed, nothing more drawn', async () => {
    let signal;
    const client = fakeClient(quoted, {
      signTransfer: (_doc, opts) => new Promise((_resolve, reject) => {
        signal = opts.signal;
        opts.signal.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError')));
      }),
    });
    const { watch, kinds } = await watching(client);
    const accepting = watch.accept();
    watch.stop();
    await accepting;
    assert.ok(signal.aborted && client.stream.closed);
    assert.deepEqual(kinds(), ['quote']);
    assert.ok(!client.names().includes('cancelTransfer'));
  });
});
