// Sign in and sign up (screens/auth-model.js) driven without a DOM: a strict fake client answers
// what each test expects and fails loudly on any other call; the code step is a function.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountersignError } from '../../Sources/CountersignServer/Resources/web/countersign.js';
import { nextOf, SignIn, SignUp } from '../../Sources/CountersignServer/Resources/web/screens/auth-model.js';
import { strictFake } from './fakes.mjs';

const refusal = (status, code, more = {}) => Object.assign(new CountersignError(status, code, code), more);
const proof = { verificationId: 'pv_1', code: '123456' };
const noProof = () => assert.fail('no code is asked for here');

/** Sign-in over a fake client with `answers`; the autofill is available when `conditional`. */
function signInWith(answers, { conditional = false } = {}) {
  const client = strictFake('api', answers);
  const states = [];
  let signedIn = 0;
  const model = new SignIn(client.fake, {
    signedIn: async () => { signedIn += 1; },
    conditionalAvailable: async () => conditional,
    onChange: (s) => states.push(s),
  });
  return { model, client, states, kinds: () => states.map((s) => s.kind), signedIn: () => signedIn };
}

test('after signing in, only an app route: never another site', () => {
  const next = (q) => nextOf(new URLSearchParams(q));
  assert.deepEqual([next(''), next('next=/send'), next('next=//evil.example'), next('next=https://evil.example')],
    ['/', '/send', '/', '/']);
});

describe('signing in with phone and PIN', () => {
  test('a phone or a PIN missing: refused on its field, nothing sent', async () => {
    const { model, client } = signInWith({});
    await assert.rejects(model.signIn({ phone: '  ', pin: '4827', proof: noProof }), { field: 'phone' });
    for (const pin of ['', '123', '1234567', '12a4']) {
      await assert.rejects(model.signIn({ phone: '0801', pin, proof: noProof }), { field: 'pin' }, pin);
    }
    assert.deepEqual(client.names(), []);
  });

  test('a browser the server knows: phone and PIN alone', async () => {
    const { model, client, kinds, signedIn } = signInWith({ login: () => ({}) });
    await model.signIn({ phone: ' 08012345678 ', pin: '4827', proof: noProof });
    assert.deepEqual(client.calls, [['login', { phone: '08012345678', pin: '4827' }]]);
    assert.deepEqual([kinds(), signedIn()], [['signedIn'], 1]);
  });

  test('a new browser: a code with them, sent only once the step gives one', async () => {
    let known = false;
    const { model, client, kinds, signedIn } = signInWith({
      login: (body) => {
        if (!body.code) throw refusal(401, 'phone_code_required');
        known = true;
      },
    });
    await model.signIn({ phone: '0801', pin: '4827', proof: noProof });
    assert.deepEqual(kinds(), ['withCode']);
    await model.signIn({ phone: '0801', pin: '4827', proof: () => null });
    assert.equal(client.calls.length, 1, 'no code yet: nothing sent');
    await model.signIn({ phone: '0801', pin: '4827', proof: () => proof });
    assert.deepEqual(client.calls[1], ['login', { phone: '0801', pin: '4827', ...proof }]);
    assert.ok(known);
    assert.deepEqual([kinds(), signedIn()], [['withCode', 'signedIn'], 1]);
  });

  test('refusals: the code on its field, a locked PIN until when, a wrong PIN as the server says', async () => {
    const locked = refusal(423, 'pin_locked', { retryAfter: 120, traceId: 't1' });
    const wrong = refusal(401, 'authorization_failed');
    let answer = refusal(401, 'phone_code_required');
    const { model, states, signedIn } = signInWith({ login: () => { throw answer; } });
    await model.signIn({ phone: '0801', pin: '4827', proof: noProof });
    answer = refusal(400, 'invalid_code');
    await assert.rejects(model.signIn({ phone: '0801', pin: '4827', proof: () => proof }), { field: 'code', code: 'invalid_code' });
    answer = locked;
    await assert.rejects(model.signIn({ phone: '0801', pin: '4827', proof: () => proof }),
      (e) => !e.field && /^Too many wrong PINs\. Try again in 2 minutes/.test(e.message) && e.code === 'pin_locked' && e.traceId === 't1');
    answer = wrong;
    await assert.rejects(model.signIn({ phone: '0801', pin: '4827', proof: () => proof }), (e) => e === wrong);
    assert.deepEqual([states.at(-1).kind, signedIn()], ['withCode', 0]);
  });
});

describe('signing in with a passkey', () => {
  test('the button: signed in; a cancel in words of its own; another failure as it is', async () => {
    let answer = async () => ({});
    const { model, signedIn, kinds } = signInWith({ loginWithPasskey: () => answer() });
    await model.passkey();
    assert.deepEqual([kinds(), signedIn()], [['signedIn'], 1]);
    answer = async () => { throw new DOMException('no', 'NotAllowedError'); };
    await assert.rejects(model.passkey(), { message: /^Passkey sign-in was cancelled/ });
    const odd = refusal(500, 'internal_error');
    answer = async () => { throw odd; };
    await assert.rejects(model.passkey(), (e) => e === odd);
  });

  test('the autofill: offered where the browser can, and signs in', async () => {
    const { model, client, signedIn } = signInWith({ loginWithPasskey: () => ({}) }, { conditional: true });
    await model.start();
    assert.equal(client.calls[0][1].mediation, 'conditional');
    assert.equal(signedIn(), 1);
    const without = signInWith({});
    await without.model.start();
    assert.deepEqual(without.client.names(), []);
  });

  test('the autofill failing: shown on the form, unless cancelled or no passkey', async () => {
    for (const [error, shown] of [[refusal(500, 'internal_error'), true], [refusal(404, 'unknown_credential'), false],
      [new DOMException('no', 'AbortError'), false]]) {
      const { model, states } = signInWith({ loginWithPasskey: () => { throw error; } }, { conditional: true });
      await model.start();
      assert.deepEqual(states, shown ? [{ kind: 'password', passkeyError: error }] : [], String(error.code ?? error.name));
    }
  });

  test('the form or the button withdraws the autofill before signing in; leaving withdraws it too', async () => {
    const signals = [];
    const pending = (_opts) => new Promise((_resolve, reject) => {
      _opts.signal.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError')));
    });
    const { model, signedIn } = signInWith({
      loginWithPasskey: (opts) => {
        if (opts) signals.push(opts.signal);
        return opts ? pending(opts) : {};
      },
      login: () => ({}),
    }, { conditional: true });
    model.start();
    await new Promise((resolve) => setImmediate(resolve));
    await model.passkey();
    assert.ok(signals[0].aborted);
    assert.equal(signedIn(), 1);

    const leaving = signInWith({ loginWithPasskey: (opts) => { signals.push(opts.signal); return pending(opts); } }, { conditional: true });
    const started = leaving.model.start();
    await new Promise((resolve) => setImmediate(resolve));
    leaving.model.stop();
    await started;
    assert.ok(signals[1].aborted);
    assert.deepEqual(leaving.states, []);
  });
});

describe('signing up', () => {
  const fields = { phone: '0801', proof: () => proof, name: ' Ada ', pin: '4827', again: '4827' };

  /** Sign-up over a fake client with `answers`; `pins` records what signedIn was given. */
  function signUpWith(answers) {
    const client = strictFake('api', answers);
    const pins = [];
    const model = new SignUp(client.fake, { signedIn: async (pin) => { pins.push(pin); } });
    return { model, client, pins };
  }

  test('each field in order, nothing sent until all are right', async () => {
    const { model, client } = signUpWith({});
    await assert.rejects(model.signUp({ ...fields, phone: ' ', proof: noProof }), { field: 'phone' });
    assert.equal((await model.signUp({ ...fields, proof: () => null })).kind, 'form');
    await assert.rejects(model.signUp({ ...fields, name: '  ' }), { field: 'name' });
    await assert.rejects(model.signUp({ ...fields, pin: '12' }), { field: 'pin' });
    await assert.rejects(model.signUp({ ...fields, again: '4828' }), { field: 'again' });
    assert.deepEqual(client.names(), []);
  });

  test('the account opened with the code, the name trimmed; the app told the PIN', async () => {
    const { model, client, pins } = signUpWith({ signup: () => ({}) });
    assert.equal((await model.signUp(fields)).kind, 'signedIn');
    assert.deepEqual(client.calls, [['signup', { ...proof, name: 'Ada', pin: '4827' }]]);
    assert.deepEqual(pins, ['4827']);
  });

  test('the server\'s refusals land on their field, or on the form', async () => {
    const phone = refusal(400, 'invalid_phone');
    for (const [error, expected] of [
      [refusal(422, 'weak_pin'), { field: 'pin', clearAgain: true, code: 'weak_pin' }],
      [refusal(400, 'invalid_name'), { field: 'name', code: 'invalid_name' }],
      [refusal(400, 'code_expired'), { field: 'code', code: 'code_expired' }],
      [phone, phone],
    ]) {
      const { model, pins } = signUpWith({ signup: () => { throw error; } });
      await assert.rejects(model.signUp(fields), expected === phone ? (e) => e === phone : expected);
      assert.deepEqual(pins, []);
    }
  });
});
