// @ts-check
/**
 * Sign up and sign in: the views of `SignIn` and `SignUp` (auth-model.js), each with its SMS code
 * step (code-step.js).
 */
import * as ui from '../ui.js';
import { nextOf, SignIn, SignUp } from './auth-model.js';
import { codeStep } from './code-step.js';

const { h } = ui;

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} query
 * @param {any} app
 */
async function renderSignIn(view, _params, query, app) {
  if (app.user) {
    app.navigate(nextOf(query), { replace: true });
    return;
  }
  const next = nextOf(query);
  ui.setTitle(view, 'Sign in');
  const phone = ui.field('Phone number', {
    id: 'signin-phone', type: 'tel', inputMode: 'tel', autocomplete: 'username webauthn', required: true,
    placeholder: '080 1234 5678',
  });
  const pin = ui.pinField('Account PIN', { id: 'signin-pin', autocomplete: 'current-password',
    hint: 'The PIN you chose when you signed up. Not the unlock code of a device.' });
  // Shown when the server does not know this browser: a code to the number proves it is the user.
  const code = codeStep(app, {
    id: 'signin-sms', purpose: 'login', phone: () => phone.input.value,
    intro: 'This browser has not signed in to your account before. We text a code to your number to make sure it is you.',
  });
  const codeBox = h('div', { className: 'code-box', hidden: true }, code.element);
  const form = h('form', { className: 'card', id: 'signin-form', novalidate: true },
    phone, pin, codeBox,
    h('button', { type: 'submit', className: 'btn primary', id: 'signin-submit' }, 'Sign in'),
    h('p', { className: 'forgot' }, ui.link(`/forgot-pin?next=${encodeURIComponent(next)}`, 'Forgot PIN?', { id: 'to-forgot-pin' })));
  phone.input.addEventListener('input', () => {
    if (code.sent) code.reset();
  });
  const passkeyButton = ui.button('Sign in with a passkey', () => passkeySignIn(), { id: 'signin-passkey', kind: 'secondary' });
  const passkeyBox = h('section', { className: 'card', 'aria-labelledby': 'pk-h' },
    h('h2', { id: 'pk-h' }, 'Have a passkey?'),
    h('p', { className: 'muted' }, 'Use the fingerprint, face or screen lock of a device where you added one.'),
    passkeyButton);
  ui.replace(view, view.firstElementChild,
    query.get('expired') ? h('div', { className: 'notice', role: 'status' }, 'Your session ended. Sign in again.') : null,
    form,
    passkeyBox,
    h('p', null, 'New to Countersign? ', ui.link(`/signup?next=${encodeURIComponent(next)}`, 'Create an account', { id: 'to-signup' })));

  const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
  const PKC = /** @type {any} */ (window.PublicKeyCredential);
  const model = new SignIn(app.api, {
    signedIn: () => app.signedIn(next, pin.input.value),
    // Conditional mediation: the browser offers saved passkeys in the phone field's autofill.
    conditionalAvailable: async () => !!PKC && typeof PKC.isConditionalMediationAvailable === 'function'
      && PKC.isConditionalMediationAvailable(),
    onChange: (/** @type {any} */ state) => screens[state.kind](state),
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    ui.fieldError(phone, null);
    ui.fieldError(pin, null);
    try {
      await ui.busy(submit, model.signIn({ phone: phone.input.value, pin: pin.input.value, proof: () => code.proof() }));
    } catch (error) {
      if (!ui.showRefusal(error, { box: form, fields: { phone, pin }, code })) {
        pin.input.value = '';
        pin.input.focus();
      }
    }
  });

  async function passkeySignIn() {
    ui.showError(passkeyBox, null);
    try {
      await ui.busy(passkeyButton, model.passkey());
    } catch (error) {
      ui.showError(passkeyBox, error);
    }
  }

  /** The autofill's passkey sign-in failed. @param {{passkeyError?: any}} state */
  function drawPasskeyError({ passkeyError }) {
    if (passkeyError) ui.showError(passkeyBox, passkeyError);
  }

  /** @type {Record<string, (state: any) => void>} */
  const screens = {
    password: drawPasskeyError,
    // Not a wrong PIN: this browser needs a code too. The PIN stays for the retry.
    withCode: (state) => {
      if (codeBox.hidden) {
        codeBox.hidden = false;
        ui.showNotice(form, 'Sign in with a code: this browser is new to your account.');
        /** @type {HTMLElement} */ (code.element.querySelector('button:not([hidden])'))?.focus();
      }
      drawPasskeyError(state);
    },
    signedIn: () => {},
  };

  model.start();
  return () => {
    model.stop();
    code.stop();
  };
}

/**
 * Sign up: the number first, proven by a code; then the name and a PIN.
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} query
 * @param {any} app
 */
function renderSignUp(view, _params, query, app) {
  if (app.user) {
    app.navigate('/', { replace: true });
    return;
  }
  const next = nextOf(query);
  ui.setTitle(view, 'Create your account');
  const phone = ui.field('Phone number', {
    id: 'signup-phone', type: 'tel', inputMode: 'tel', autocomplete: 'tel', required: true, placeholder: '080 1234 5678',
    hint: 'We text a code to it: the account is opened on a number you hold.',
  });
  const details = h('div', { className: 'signup-details', hidden: true });
  const code = codeStep(app, {
    id: 'signup-sms', purpose: 'signup', phone: () => phone.input.value,
    onSent: () => {
      details.hidden = false;
    },
  });
  const name = ui.field('Your name', { id: 'signup-name', autocomplete: 'name', required: true, maxLength: 100 });
  const pin = ui.pinField('Choose your account PIN', {
    id: 'signup-pin', autocomplete: 'new-password',
    hint: '4 to 6 digits, not an easy one (1234, 0000, 2580 and the like are refused). You sign in and approve payments with it; our server checks it.',
  });
  const again = ui.pinField('Repeat the account PIN', { id: 'signup-pin2', autocomplete: 'new-password' });
  details.append(name, pin, again, h('button', { type: 'submit', className: 'btn primary', id: 'signup-submit' }, 'Create account'));
  const form = h('form', { className: 'card', id: 'signup-form', novalidate: true }, phone, code.element, details);
  view.append(form, h('p', null, 'Have an account? ', ui.link(`/signin?next=${encodeURIComponent(next)}`, 'Sign in')));
  phone.input.addEventListener('input', () => {
    if (code.sent) code.reset();
  });

  const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
  const model = new SignUp(app.api, { signedIn: (pin) => app.signedIn(next, pin) });
  /** @type {Record<string, ui.Field>} */
  const fields = { phone, name, pin, again };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    for (const f of Object.values(fields)) ui.fieldError(f, null);
    try {
      await ui.busy(submit, model.signUp({
        phone: phone.input.value, proof: () => code.proof(), name: name.input.value, pin: pin.input.value, again: again.input.value,
      }));
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (!ui.showRefusal(error, { box: form, fields, code })) (e && e.code === 'invalid_phone' ? phone.input : submit).focus();
      if (e.clearAgain) again.input.value = '';
    }
  });

  return () => code.stop();
}

export const routes = [
  { path: '/signin', title: 'Sign in', auth: false, render: renderSignIn },
  { path: '/signup', title: 'Create your account', auth: false, render: renderSignUp },
];
