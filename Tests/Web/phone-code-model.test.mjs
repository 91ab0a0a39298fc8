// One SMS code's model (screens/phone-code.js) driven without a DOM: a strict fake client, a clock
// the test moves, and the server's SMS simulator as a list of messages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { codeIn, PhoneCode } from '../../Sources/CountersignServer/Resources/web/screens/phone-code.js';
import { strictFake } from './fakes.mjs';

const answer = (n) => ({ verificationId: `pv_${n}`, expiresIn: 600, resendAfter: 30 });
const message = (body, sentAt) => ({ to: '+2348012345678', body, sentAt: new Date(sentAt).toISOString() });

/** A code step for `purpose` over a client with `answers` (not in test mode unless `health` says so). */
function stepWith(answers, { purpose = 'login' } = {}) {
  let sent = 0;
  const client = strictFake('api', {
    health: () => ({ status: 'ok', smsTestMode: false }),
    requestCode: () => answer(++sent),
    ...answers,
  });
  const clock = { now: 1_000_000 };
  const states = [];
  const model = new PhoneCode(client.fake, { purpose, now: () => clock.now, pollMs: 1, pollTries: 5, onChange: (s) => states.push(s) });
  return { model, client, clock, states, kinds: () => states.map((s) => s.kind) };
}

/** Waits (a few milliseconds at most) until `done()`. */
async function until(done) {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('sending', () => {
  test('idle, sending, sent: the id of the code, and no resend before the server allows one', async () => {
    const { model, client, clock, kinds } = stepWith({});
    assert.equal(model.state.kind, 'idle');
    assert.equal(model.proof('123456'), null, 'no code sent yet');
    await model.send('08012345678');
    assert.deepEqual(kinds(), ['sending', 'sent']);
    assert.deepEqual(client.calls[0], ['requestCode', { phone: '08012345678', purpose: 'login' }]);
    assert.equal(model.resendIn(), 30);
    clock.now += 29_500;
    assert.equal(model.resendIn(), 1);
    clock.now += 600;
    assert.equal(model.resendIn(), 0);
    assert.deepEqual(model.proof('123456'), { verificationId: 'pv_1', code: '123456' });
  });

  test('refused: failed, with the server\'s error', async () => {
    const limited = Object.assign(new CountersignError(429, 'rate_limited', 'slow down'), { retryAfter: 60 });
    const { model, kinds } = stepWith({ requestCode: () => { throw limited; } });
    await model.send('0801');
    assert.deepEqual(kinds(), ['sending', 'failed']);
    assert.equal(model.state.error, limited);
  });

  test('a second press while sending asks for no second code', async () => {
    const { model, client } = stepWith({});
    await Promise.all([model.send('0801'), model.send('0801')]);
    assert.equal(client.names().filter((n) => n === 'requestCode').length, 1);
  });

  test('the number changed (reset) or the screen gone (stop) while sending: the late answer is dropped', async () => {
    const { model, kinds } = stepWith({});
    const sending = model.send('0801');
    model.reset();
    await sending;
    assert.deepEqual(kinds(), ['sending', 'idle']);
    assert.equal(model.proof('123456'), null);

    const gone = stepWith({});
    const leaving = gone.model.send('0801');
    gone.model.stop();
    await leaving;
    assert.deepEqual(gone.kinds(), ['sending']);
  });
});

describe('test mode', () => {
  test('the simulator\'s fresh code for this purpose, then after a resend the new one', async () => {
    const { model, clock } = stepWith({
      health: () => ({ status: 'ok', smsTestMode: true }),
      simulatedMessages: () => ({ messages }),
    });
    const messages = [
      message('111111 is your code to add a device key to your Countersign account.', clock.now),
      message('Your Countersign account was signed in to on a new device.', clock.now),
      message('222222 is your code to sign in to Countersign on a new device.', clock.now),
      message('333333 is your code to sign in to Countersign on a new device.', clock.now - 3_600_000),
    ];
    await model.send('08012345678');
    await until(() => model.state.simulated);
    assert.equal(model.state.simulated, '222222');
    clock.now += 31_000;
    messages.unshift(message('444444 is your code to sign in to Countersign on a new device.', clock.now));
    await model.send('08012345678');
    await until(() => model.state.simulated === '444444');
    assert.deepEqual([model.state.simulated, model.state.verificationId], ['444444', 'pv_2']);
    assert.equal(codeIn('12345 no'), null);
  });

  test('not in test mode: the simulator is never asked', async () => {
    const { model, client } = stepWith({});
    await model.send('0801');
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(client.names(), ['requestCode', 'health']);
    assert.equal(model.state.simulated, null);
  });
});
