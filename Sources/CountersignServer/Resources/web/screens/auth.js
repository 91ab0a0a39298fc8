// @ts-check
/**
 * Sign up and sign in. Signing up proves the number with an SMS code first. Signing in takes phone
 * and PIN in a browser that held a session of the user before (the server's device cookie), and a
 * code besides anywhere else (401 `phone_code_required`); or a passkey (discoverable credential).
 */
import * as ui from '../ui.js';
import { codeStep, CODE_ERRORS } from './code-step.js';

const { h } = ui;

/** @param {URLSearchParams} query */
export function nextOf(query) {
  const next = query.get('next') || '/';
  // Only app routes: never an absolute URL.
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** @param {any} error */
export function isAbort(error) {
  return error && (error.name === 'AbortError' || error.name === 'NotAllowedError');
}

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

  let active = true;
  /** @type {AbortController | null} */
  let conditional = null;
  /** @type {Promise<unknown> | null} */
  let conditionalDone = null;

  /** @param {any} session */
  const done = async (session) => {
    if (!active) return;
    await app.signedIn(next, pin.input.value);
    return session;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    ui.fieldError(phone, null);
    ui.fieldError(pin, null);
    if (!phone.input.value.trim()) {
      ui.fieldError(phone, 'Enter the phone number of your account, e.g. 0803 123 4567.');
      phone.input.focus();
      return;
    }
    if (!/^[0-9]{4,6}$/.test(pin.input.value)) {
      ui.fieldError(pin, 'Enter your account PIN: 4 to 6 digits.');
      pin.input.focus();
      return;
    }
    /** @type {{verificationId?: string, code?: string}} */
    let proof = {};
    if (!codeBox.hidden) {
      const p = code.proof();
      if (!p) return;
      proof = p;
    }
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    try {
      await ui.busy(submit, async () => {
        await app.api.login({ phone: phone.input.value.trim(), pin: pin.input.value, ...proof });
        await stopConditional();
        await done(null);
      });
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e && e.code === 'phone_code_required') {
        // Not a wrong PIN: this browser needs a code too. The PIN stays for the retry.
        codeBox.hidden = false;
        ui.showNotice(form, 'Sign in with a code: this browser is new to your account.');
        /** @type {HTMLElement} */ (code.element.querySelector('button:not([hidden])'))?.focus();
        return;
      }
      if (e && CODE_ERRORS.includes(e.code)) {
        code.refuse(ui.describeError(e));
        return;
      }
      pin.input.value = '';
      ui.showError(form, e && e.status === 423 && e.retryAfter
        ? Object.assign(new Error(`Too many wrong PINs. Try again ${ui.inDuration(e.retryAfter)}.`), { code: e.code, traceId: e.traceId })
        : error);
      pin.input.focus();
    }
  });

  async function stopConditional() {
    if (conditional) {
      conditional.abort();
      conditional = null;
      await conditionalDone?.catch(() => {});
    }
  }

  async function passkeySignIn() {
    ui.showError(passkeyBox, null);
    try {
      await ui.busy(passkeyButton, async () => {
        await stopConditional();
        const session = await app.api.loginWithPasskey();
        await done(session);
      });
    } catch (error) {
      ui.showError(passkeyBox, isAbort(error)
        ? 'Passkey sign-in was cancelled, or this device has no passkey for Countersign.'
        : error);
    }
  }

  // Conditional mediation: the browser offers saved passkeys in the phone field's autofill.
  const PKC = /** @type {any} */ (window.PublicKeyCredential);
  if (PKC && typeof PKC.isConditionalMediationAvailable === 'function') {
    PKC.isConditionalMediationAvailable().then((/** @type {boolean} */ available) => {
      if (!available || !active) return;
      conditional = new AbortController();
      conditionalDone = app.api.loginWithPasskey({ mediation: 'conditional', signal: conditional.signal })
        .then(done)
        .catch((/** @type {any} */ error) => {
          if (!isAbort(error) && active && error && error.status && error.status !== 404) ui.showError(passkeyBox, error);
        });
    }).catch(() => {});
  }

  return () => {
    active = false;
    conditional?.abort();
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

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    for (const f of [name, pin, again]) ui.fieldError(f, null);
    if (!phone.input.value.trim()) return fail('Enter your phone number.', phone);
    const proof = code.proof();
    if (!proof) return undefined;
    if (!name.input.value.trim()) return fail('Enter your name.', name);
    if (!/^[0-9]{4,6}$/.test(pin.input.value)) return fail('The PIN must be 4 to 6 digits.', pin);
    if (pin.input.value !== again.input.value) return fail('The two PINs differ.', again);
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    try {
      await ui.busy(submit, async () => {
        await app.api.signup({ ...proof, name: name.input.value.trim(), pin: pin.input.value });
        await app.signedIn(next, pin.input.value);
      });
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e && CODE_ERRORS.includes(e.code)) {
        code.refuse(ui.describeError(e));
      } else if (e && (e.code === 'weak_pin' || e.code === 'invalid_pin')) {
        fail(ui.describeError(e), pin);
        again.input.value = '';
      } else if (e && e.code === 'invalid_name') {
        fail(ui.describeError(e), name);
      } else {
        ui.showError(form, error);
        (e && e.code === 'invalid_phone' ? phone.input : submit).focus();
      }
    }
    return undefined;
  });

  /** @param {string} message @param {ui.Field} f */
  function fail(message, f) {
    ui.fieldError(f, message);
    f.input.focus();
  }

  return () => code.stop();
}

export const routes = [
  { path: '/signin', title: 'Sign in', auth: false, render: renderSignIn },
  { path: '/signup', title: 'Create your account', auth: false, render: renderSignUp },
];
