// @ts-check
/**
 * Soft lock (on the device only): no network call. The view of lock-model.js: on open, a passkey
 * user-verification gesture over a challenge made here (accepted when the browser returns an
 * assertion with UV set); on failure or without an authenticator, this device's unlock code. Also
 * what the lock needs of the browser: the gesture, the platform authenticator, and keeping the
 * unlocked mark fresh while the page is open.
 */
import { base64urlDecode, base64urlEncode, userVerified } from '../countersign.js';
import * as ui from '../ui.js';
import { chooseUnlockCode, localCredentials, LockScreen, TOUCH_MS, touchUnlocked } from './lock-model.js';

const { h } = ui;

/**
 * Keeps the unlocked mark fresh while the page is open (and at the moment it is hidden or left), so
 * that only a page gone for longer than the mark lasts (a restored browser session) asks again.
 * `onReturn` runs when the page comes back from the back/forward cache, to lock it if it went stale.
 * @param {() => void} onReturn
 */
export function keepUnlockedFresh(onReturn) {
  setInterval(touchUnlocked, TOUCH_MS);
  document.addEventListener('visibilitychange', touchUnlocked);
  window.addEventListener('pagehide', touchUnlocked);
  window.addEventListener('pageshow', (event) => {
    if (/** @type {PageTransitionEvent} */ (event).persisted) onReturn();
  });
}

/**
 * The passkey gesture: `navigator.credentials.get` over a random challenge made here, for the
 * keys this browser enrolled. Accepted when an assertion comes back with UV set; the signature is
 * not checked (nothing is sent anywhere): this proves a verified user is at this device, no more.
 * @param {string} userId
 * @param {AbortSignal} [signal]
 */
export async function passkeyGesture(userId, signal) {
  const ids = localCredentials(userId);
  if (ids.length === 0 || !window.PublicKeyCredential) return false;
  /** @type {CredentialRequestOptions} */
  const request = {
    publicKey: {
      challenge: crypto.getRandomValues(new Uint8Array(32)),
      allowCredentials: ids.map((id) => ({ type: 'public-key', id: base64urlDecode(id) })),
      userVerification: 'required',
      timeout: 60000,
    },
  };
  if (signal) request.signal = signal;
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get(request));
  return !!credential && ids.includes(base64urlEncode(credential.rawId)) && userVerified(credential);
}

/** Whether the browser has a user-verifying platform authenticator. */
export async function platformAuthenticatorAvailable() {
  try {
    return !!window.PublicKeyCredential
      && await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}

/** The lock screen shown, if any. @type {LockScreen | null} */
let shown = null;

/** Abandons a passkey prompt of the lock screen (the user left it); a later prompt would be refused. */
export function abortGesture() {
  shown?.stop();
  shown = null;
}

/**
 * The lock screen, the view of `LockScreen` (lock-model.js). Resolves 'unlocked' once the user
 * passes, or 'signed-out'.
 * @param {HTMLElement} view
 * @param {any} app
 * @returns {Promise<'unlocked' | 'signed-out'>}
 */
export function renderLock(view, app) {
  return new Promise((resolve) => {
    view.replaceChildren();
    ui.setTitle(view, 'Unlock Countersign');
    const model = new LockScreen(app.user.userId, {
      passkeys: { platformAvailable: platformAuthenticatorAvailable, gesture: passkeyGesture },
      signOut: () => app.signOut(),
      onChange: (state) => screens[state.kind](state),
    });
    abortGesture();
    shown = model;
    const { hasPin, hasKey } = model;
    const status = h('p', { className: 'muted', role: 'status', id: 'lock-status' });
    const body = h('div', { className: 'card' });
    view.append(
      h('p', null, `Signed in as ${app.user.name}. Unlock this app on this device to continue.`),
      status,
      body);
    const signOut = ui.button('Sign out', () => model.signOut(), { kind: 'link', id: 'lock-signout' });

    const pin = ui.pinField('Unlock code for this device', {
      id: 'lock-pin', autocomplete: 'off',
      hint: 'The code you chose for this device after signing in here. Not your account PIN.',
    });
    const submit = h('button', { type: 'submit', className: 'btn primary', id: 'lock-pin-submit' }, 'Unlock with the code');
    const pinForm = h('form', { id: 'lock-pin-form', hidden: !hasPin, novalidate: true }, pin, submit);
    const passkeyButton = ui.button('Unlock with passkey', () => model.tryPasskey(), {
      id: 'lock-passkey', kind: hasPin ? 'secondary' : 'primary', hidden: !hasKey,
    });

    pinForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      ui.showError(body, null);
      ui.fieldError(pin, null);
      try {
        await ui.busy(submit, model.unlockWithCode(pin.input.value));
      } catch (error) {
        if (!ui.showRefusal(error, { box: body, fields: { pin } })) {
          pin.input.value = '';
          pin.input.focus();
        }
      }
    });

    /** No lock set up on this browser: only a way out. */
    function drawNone() {
      body.replaceChildren(
        h('p', null, 'This browser has no lock set up for your account. Sign in again to set one up.'),
        signOut);
    }

    /** The passkey prompt is open. */
    function drawVerifying() {
      if (!body.firstChild) body.append(passkeyButton, pinForm, signOut);
      ui.showError(body, null);
      status.textContent = 'Confirm it is you with your passkey…';
      passkeyBusy(true);
    }

    /** The unlock code and the passkey, with why the passkey did not unlock, if it did not. @param {any} state */
    function drawLocked({ note, error }) {
      if (!body.firstChild) body.append(passkeyButton, pinForm, signOut);
      passkeyBusy(false);
      status.textContent = note === 'noAuthenticator' ? 'No passkey authenticator on this device: use its unlock code.' : '';
      if (note === 'notVerified') {
        ui.showError(body, hasPin ? 'The passkey did not verify you. Use the unlock code of this device.' : 'The passkey did not verify you.');
      } else if (note === 'failed') {
        ui.showError(body, hasPin ? 'Passkey check cancelled or not available. Use the unlock code of this device.' : ui.describeError(error));
      }
      if ((note === 'notVerified' || note === 'failed') && hasPin) pin.input.focus();
    }

    /** @param {any} state */
    function drawUnlocked({ via }) {
      passkeyBusy(false);
      if (via === 'passkey') status.textContent = 'Unlocked.';
      resolve('unlocked');
    }

    function drawSignedOut() {
      resolve('signed-out');
    }

    /** @param {boolean} on */
    function passkeyBusy(on) {
      passkeyButton.disabled = on;
      if (on) passkeyButton.setAttribute('aria-busy', 'true');
      else passkeyButton.removeAttribute('aria-busy');
    }

    /** @type {Record<string, (state: any) => void>} */
    const screens = { none: drawNone, locked: drawLocked, verifying: drawVerifying, unlocked: drawUnlocked, signedOut: drawSignedOut };

    // Focus stays on the heading (setTitle), as on every new screen; the code field is next in order.
    model.start();
  });
}

/** First sign-in on this browser: choose the unlock code that opens the app here. */
export const routes = [
  {
    path: '/lock/setup',
    title: 'Choose an unlock code for this device',
    auth: true,
    /** @param {HTMLElement} view @param {any} _p @param {URLSearchParams} query @param {any} app */
    render(view, _p, query, app) {
      const next = query.get('next') || '/';
      ui.setTitle(view, 'Choose an unlock code for this device');
      const pin = ui.pinField('New unlock code', {
        id: 'setup-pin', autocomplete: 'off',
        hint: '4 to 6 digits, different from your account PIN. It stays on this device and is never sent.',
      });
      const again = ui.pinField('Repeat the unlock code', { id: 'setup-pin2', autocomplete: 'off' });
      const form = h('form', { className: 'card', id: 'setup-form', novalidate: true },
        pin, again,
        h('button', { type: 'submit', className: 'btn primary', id: 'setup-submit' }, 'Save the unlock code'));
      view.append(
        h('p', { id: 'setup-why' }, 'You now have two secrets, for two jobs:'),
        h('ul', { className: 'two-secrets', 'aria-labelledby': 'setup-why' },
          h('li', null, h('strong', null, 'Your account PIN'), ' (chosen a moment ago): signs you in and approves payments. Our server checks it.'),
          h('li', null, h('strong', null, 'This unlock code'), ': opens the app on this device when you come back, before anything else. Only this device checks it.')),
        form);
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        ui.showError(form, null);
        ui.fieldError(pin, null);
        ui.fieldError(again, null);
        const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
        try {
          await ui.busy(submit, chooseUnlockCode(app.user.userId, pin.input.value, again.input.value));
        } catch (error) {
          ui.showRefusal(error, { box: form, fields: { pin, again } });
          if (/** @type {any} */ (error).reason === 'accountPin') {
            pin.input.value = '';
            again.input.value = '';
          }
          return;
        }
        app.navigate(next, { replace: true });
      });
    },
  },
];
