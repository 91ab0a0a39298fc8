// @ts-check
/** Sign up and sign in: phone and PIN, or a passkey (discoverable credential). */
import * as ui from '../ui.js';

const { h } = ui;

/** @param {URLSearchParams} query */
function nextOf(query) {
  const next = query.get('next') || '/';
  // Only app routes: never an absolute URL.
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** @param {any} error */
function isAbort(error) {
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
  const pin = ui.pinField('PIN', { id: 'signin-pin', autocomplete: 'current-password' });
  const form = h('form', { className: 'card', id: 'signin-form', novalidate: true },
    phone, pin,
    h('button', { type: 'submit', className: 'btn primary', id: 'signin-submit' }, 'Sign in'));
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
    await app.signedIn(next);
    return session;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    if (!phone.input.value.trim() || !/^[0-9]{4,6}$/.test(pin.input.value)) {
      ui.showError(form, 'Enter your phone number and your 4 to 6 digit PIN.');
      (phone.input.value.trim() ? pin.input : phone.input).focus();
      return;
    }
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    try {
      await ui.busy(submit, async () => {
        await app.api.login({ phone: phone.input.value.trim(), pin: pin.input.value });
        await stopConditional();
        await done(null);
      });
    } catch (error) {
      pin.input.value = '';
      const e = /** @type {any} */ (error);
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
  };
}

/**
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
  const name = ui.field('Your name', { id: 'signup-name', autocomplete: 'name', required: true, maxLength: 100 });
  const phone = ui.field('Phone number', {
    id: 'signup-phone', type: 'tel', inputMode: 'tel', autocomplete: 'tel', required: true, placeholder: '080 1234 5678',
  });
  const pin = ui.pinField('Choose a PIN', { id: 'signup-pin', autocomplete: 'new-password', hint: '4 to 6 digits. You sign in and pay with it.' });
  const again = ui.pinField('Repeat the PIN', { id: 'signup-pin2', autocomplete: 'new-password' });
  const form = h('form', { className: 'card', id: 'signup-form', novalidate: true },
    name, phone, pin, again,
    h('button', { type: 'submit', className: 'btn primary', id: 'signup-submit' }, 'Create account'));
  view.append(form, h('p', null, 'Have an account? ', ui.link(`/signin?next=${encodeURIComponent(next)}`, 'Sign in')));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    if (!name.input.value.trim()) return fail('Enter your name.', name.input);
    if (!phone.input.value.trim()) return fail('Enter your phone number.', phone.input);
    if (!/^[0-9]{4,6}$/.test(pin.input.value)) return fail('The PIN must be 4 to 6 digits.', pin.input);
    if (pin.input.value !== again.input.value) return fail('The two PINs differ.', again.input);
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    try {
      await ui.busy(submit, async () => {
        await app.api.signup({ phone: phone.input.value.trim(), name: name.input.value.trim(), pin: pin.input.value });
        await app.signedIn(next);
      });
    } catch (error) {
      ui.showError(form, error);
      const code = /** @type {any} */ (error)?.code;
      (code === 'invalid_pin' ? pin.input : code === 'invalid_name' ? name.input : phone.input).focus();
    }
  });

  /** @param {string} message @param {HTMLElement} input */
  function fail(message, input) {
    ui.showError(form, message);
    input.focus();
  }
}

export const routes = [
  { path: '/signin', title: 'Sign in', auth: false, render: renderSignIn },
  { path: '/signup', title: 'Create your account', auth: false, render: renderSignUp },
];
