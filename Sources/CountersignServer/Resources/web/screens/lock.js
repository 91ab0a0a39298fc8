// @ts-check
/**
 * Soft lock (on the device only): no network call. On open, a passkey user-verification
 * gesture over a challenge made here (accepted when the browser returns an assertion with UV set);
 * on failure or without an authenticator, a PIN set on this browser, kept only as a salted
 * PBKDF2-SHA256 hash in localStorage. Success sets a sessionStorage mark so this tab does not ask
 * again while it stays open (a restored browser session asks again). The server never sees either: payments are authorized separately, by the server.
 */
import { base64urlDecode, base64urlEncode, userVerified } from '../countersign.js';
import * as ui from '../ui.js';

const { h } = ui;
const ITERATIONS = 310000; // OWASP 2023 for PBKDF2-HMAC-SHA256 (at least 210,000)
const UNLOCKED = 'countersign.unlocked';
// After this many wrong unlock codes in a row the app signs out: the account PIN (checked and
// rate-limited by the server) is then needed to come back.
const MAX_PIN_FAILURES = 5;

/** @param {string} userId */
const pinKey = (userId) => `countersign.localPin.${userId}`;
/** @param {string} userId */
const credKey = (userId) => `countersign.credentials.${userId}`;
/** @param {string} userId */
const failKey = (userId) => `countersign.lockFailures.${userId}`;

/*
 * The unlocked mark lives in sessionStorage (a new tab starts locked) with the time the page was
 * last seen open, refreshed while it is (keepUnlockedFresh). A browser that restores its last
 * session restores sessionStorage too; the mark is then older than STALE_MS and the app locks
 * again, while a reload of an open tab (seen a moment ago) does not ask twice.
 */
const STALE_MS = 60_000;
const TOUCH_MS = 10_000;

/** @returns {{userId: string, seen: number} | null} */
function unlockedMark() {
  try {
    const mark = JSON.parse(sessionStorage.getItem(UNLOCKED) || 'null');
    return mark && typeof mark.userId === 'string' && typeof mark.seen === 'number' ? mark : null;
  } catch {
    return null;
  }
}

/** @param {string} userId */
export function isUnlocked(userId) {
  const mark = unlockedMark();
  const age = mark ? Date.now() - mark.seen : Infinity;
  return !!mark && mark.userId === userId && age >= -TOUCH_MS && age <= STALE_MS;
}

/** @param {string} userId */
export function markUnlocked(userId) {
  sessionStorage.setItem(UNLOCKED, JSON.stringify({ userId, seen: Date.now() }));
}

/** Renews the unlocked mark's time while this page is open and unlocked. */
function touchUnlocked() {
  const mark = unlockedMark();
  if (mark && isUnlocked(mark.userId)) markUnlocked(mark.userId);
}

/**
 * Keeps the unlocked mark fresh while the page is open (and at the moment it is hidden or left), so
 * that only a page gone for longer than STALE_MS (a restored browser session) asks again.
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

export function clearUnlocked() {
  sessionStorage.removeItem(UNLOCKED);
  accountPinForSetup = null;
}

/*
 * Two secrets, named apart everywhere: the account PIN (chosen at sign-up, checked and rate-limited
 * by the server, approves payments) and this device's unlock code (checked here only, with no
 * network call). They must differ: the unlock code's hash sits in localStorage, where anyone holding
 * the device can try all 10^4..10^6 codes offline; were it the account PIN, that would give the
 * account PIN away. So the account PIN just typed is held in memory only until the unlock code is
 * set, to refuse the same digits, and then dropped.
 */
/** @type {string | null} */
let accountPinForSetup = null;

/** The account PIN the user just signed in or up with (in memory only, until the unlock code is set). @param {string} pin */
export function noteAccountPin(pin) {
  accountPinForSetup = /^[0-9]{4,6}$/.test(pin) ? pin : null;
}

/** @param {string} userId */
export function hasLocalPin(userId) {
  return localStorage.getItem(pinKey(userId)) !== null;
}

/**
 * @param {string} pin
 * @param {Uint8Array} salt
 * @param {number} iterations
 */
async function derive(pin, salt, iterations) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/**
 * Stores this browser's PIN for the user as {salt, iterations, hash}.
 * @param {string} userId
 * @param {string} pin
 */
export async function setLocalPin(userId, pin) {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(pin, salt, ITERATIONS);
  localStorage.setItem(pinKey(userId), JSON.stringify({
    v: 1, alg: 'PBKDF2-SHA256', iterations: ITERATIONS, salt: base64urlEncode(salt), hash: base64urlEncode(hash),
  }));
}

/**
 * @param {string} userId
 * @param {string} pin
 * @returns {Promise<boolean>}
 */
export async function checkLocalPin(userId, pin) {
  const stored = localStorage.getItem(pinKey(userId));
  if (!stored) return false;
  const record = JSON.parse(stored);
  const hash = await derive(pin, base64urlDecode(record.salt), record.iterations);
  const expected = base64urlDecode(record.hash);
  // Constant-time comparison.
  let diff = hash.length ^ expected.length;
  for (let i = 0; i < Math.min(hash.length, expected.length); i++) diff |= hash[i] ^ expected[i];
  return diff === 0;
}

/** @param {string} userId @returns {string[]} */
export function localCredentials(userId) {
  try {
    const list = JSON.parse(localStorage.getItem(credKey(userId)) || '[]');
    return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** @param {string} userId @param {string} id */
export function rememberCredential(userId, id) {
  const list = localCredentials(userId).filter((x) => x !== id);
  list.push(id);
  localStorage.setItem(credKey(userId), JSON.stringify(list));
}

/**
 * Keeps only the ids the server still lists (a key revoked elsewhere stops unlocking here too).
 * @param {string} userId
 * @param {string[]} live
 */
export function keepCredentials(userId, live) {
  localStorage.setItem(credKey(userId), JSON.stringify(localCredentials(userId).filter((x) => live.includes(x))));
}

/** @param {string} userId @param {string} id */
export function forgetCredential(userId, id) {
  localStorage.setItem(credKey(userId), JSON.stringify(localCredentials(userId).filter((x) => x !== id)));
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

/** @type {AbortController | null} */
let pendingGesture = null;

/** Abandons a passkey prompt of the lock screen (the user left it); a later prompt would be refused. */
export function abortGesture() {
  pendingGesture?.abort();
  pendingGesture = null;
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

/**
 * The lock screen. Resolves 'unlocked' once the user passes, or 'signed-out'.
 * @param {HTMLElement} view
 * @param {any} app
 * @returns {Promise<'unlocked' | 'signed-out'>}
 */
export function renderLock(view, app) {
  return new Promise((resolve) => {
    const userId = app.user.userId;
    view.replaceChildren();
    ui.setTitle(view, 'Unlock Countersign');
    const hasPin = hasLocalPin(userId);
    const hasKey = localCredentials(userId).length > 0;
    const status = h('p', { className: 'muted', role: 'status', id: 'lock-status' });
    const body = h('div', { className: 'card' });
    view.append(
      h('p', null, `Signed in as ${app.user.name}. Unlock this app on this device to continue.`),
      status,
      body);

    const unlocked = () => {
      markUnlocked(userId);
      resolve('unlocked');
    };
    const signOut = ui.button('Sign out', () => {
      resolve('signed-out');
      app.signOut();
    }, { kind: 'link', id: 'lock-signout' });

    if (!hasPin && !hasKey) {
      body.append(
        h('p', null, 'This browser has no lock set up for your account. Sign in again to set one up.'),
        signOut);
      return;
    }

    const pin = ui.pinField('Unlock code for this device', {
      id: 'lock-pin', autocomplete: 'off',
      hint: 'The code you chose for this device after signing in here. Not your account PIN.',
    });
    const pinForm = h('form', { id: 'lock-pin-form', hidden: !hasPin, novalidate: true },
      pin,
      h('button', { type: 'submit', className: 'btn primary', id: 'lock-pin-submit' }, 'Unlock with the code'));
    const passkeyButton = ui.button('Unlock with passkey', () => tryPasskey(), {
      id: 'lock-passkey', kind: hasPin ? 'secondary' : 'primary', hidden: !hasKey,
    });
    body.append(passkeyButton, pinForm, signOut);

    pinForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      ui.showError(body, null);
      ui.fieldError(pin, null);
      const value = pin.input.value;
      if (!/^[0-9]{4,6}$/.test(value)) {
        ui.fieldError(pin, 'Enter the 4 to 6 digit unlock code of this device.');
        pin.input.focus();
        return;
      }
      const submit = /** @type {HTMLButtonElement} */ (pinForm.querySelector('button[type=submit]'));
      const ok = await ui.busy(submit, checkLocalPin(userId, value));
      if (ok) {
        localStorage.removeItem(failKey(userId));
        unlocked();
        return;
      }
      const failures = Number(localStorage.getItem(failKey(userId)) || '0') + 1;
      if (failures >= MAX_PIN_FAILURES) {
        localStorage.removeItem(failKey(userId));
        resolve('signed-out');
        await app.signOut();
        return;
      }
      localStorage.setItem(failKey(userId), String(failures));
      pin.input.value = '';
      const left = MAX_PIN_FAILURES - failures;
      ui.showError(body, `That unlock code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before you are signed out `
        + '(then you sign in again with your account PIN and choose a new code).');
      pin.input.focus();
    });

    async function tryPasskey() {
      ui.showError(body, null);
      status.textContent = 'Confirm it is you with your passkey…';
      try {
        abortGesture();
        pendingGesture = new AbortController();
        const ok = await ui.busy(passkeyButton, passkeyGesture(userId, pendingGesture.signal));
        pendingGesture = null;
        if (ok) {
          status.textContent = 'Unlocked.';
          unlocked();
          return;
        }
        status.textContent = '';
        ui.showError(body, hasPin ? 'The passkey did not verify you. Use the unlock code of this device.' : 'The passkey did not verify you.');
      } catch (error) {
        status.textContent = '';
        ui.showError(body, hasPin
          ? 'Passkey check cancelled or not available. Use the unlock code of this device.'
          : ui.describeError(error));
      }
      if (hasPin) pin.input.focus();
    }

    // Focus stays on the heading (setTitle), as on every new screen; the code field is next in order.
    if (hasKey) {
      platformAuthenticatorAvailable().then((available) => {
        if (available) tryPasskey();
        else if (hasPin) status.textContent = 'No passkey authenticator on this device: use its unlock code.';
      });
    }
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
        if (!/^[0-9]{4,6}$/.test(pin.input.value)) {
          ui.fieldError(pin, 'The unlock code must be 4 to 6 digits.');
          pin.input.focus();
          return;
        }
        if (accountPinForSetup !== null && pin.input.value === accountPinForSetup) {
          ui.fieldError(pin, 'That is your account PIN. Choose different digits: this code is kept on the device, '
            + 'and a stolen device must not give your account PIN away.');
          pin.input.value = '';
          again.input.value = '';
          pin.input.focus();
          return;
        }
        if (pin.input.value !== again.input.value) {
          ui.fieldError(again, 'The two codes differ. Type the same unlock code twice.');
          again.input.focus();
          return;
        }
        const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
        await ui.busy(submit, setLocalPin(app.user.userId, pin.input.value));
        accountPinForSetup = null;
        markUnlocked(app.user.userId);
        app.navigate(next, { replace: true });
      });
    },
  },
];
