// @ts-check
/**
 * The soft lock without its DOM (the view is lock.js), on the device only: no network call. What
 * this browser keeps (the unlocked mark in sessionStorage; the unlock code as a salted PBKDF2-SHA256
 * hash, the passkeys enrolled here and the wrong codes in a row, in localStorage) and the two screens
 * over it: `LockScreen` opens the app, `chooseUnlockCode` sets the code after a sign-in.
 *
 * LockScreen's states (`state.kind`), each with `hasPin` and `hasKey` (what this browser unlocks with):
 *   none (no lock set up here: sign out and in again),
 *   locked {note, error} (note: null, 'noAuthenticator', 'notVerified', or 'failed' with the gesture's error),
 *   verifying (the passkey prompt is open), unlocked {via: 'passkey' | 'code'}, signedOut.
 * A code that is not 4 to 6 digits rejects with `field: 'pin'`; a wrong one rejects with the tries
 * `left`, the state kept; the last wrong one signs out.
 */
import { base64urlDecode, base64urlEncode } from '../countersign.js';
import { refusal } from './refusals.js';

const ITERATIONS = 310000; // OWASP 2023 for PBKDF2-HMAC-SHA256 (at least 210,000)
const UNLOCKED = 'countersign.unlocked';
// After this many wrong unlock codes in a row the app signs out: the account PIN (checked and
// rate-limited by the server) is then needed to come back.
export const MAX_PIN_FAILURES = 5;

/** @param {string} userId */
const pinKey = (userId) => `countersign.localPin.${userId}`;
/** @param {string} userId */
const credKey = (userId) => `countersign.credentials.${userId}`;
/** @param {string} userId */
const failKey = (userId) => `countersign.lockFailures.${userId}`;

/*
 * The unlocked mark lives in sessionStorage (a new tab starts locked) with the time the page was
 * last seen open, refreshed while it is (lock.js's keepUnlockedFresh). A browser that restores its
 * last session restores sessionStorage too; the mark is then older than STALE_MS and the app locks
 * again, while a reload of an open tab (seen a moment ago) does not ask twice.
 */
const STALE_MS = 60_000;
export const TOUCH_MS = 10_000;

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
export function touchUnlocked() {
  const mark = unlockedMark();
  if (mark && isUnlocked(mark.userId)) markUnlocked(mark.userId);
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
 * The setup screen's Save: the unlock code, typed twice, stored (hashed) and this tab unlocked.
 * Rejects, storing nothing, with `field` ('pin' or 'again') and `reason`: 'format' (not 4 to 6
 * digits), 'accountPin' (the account PIN just typed), 'differ' (the two differ).
 * @param {string} userId @param {string} code @param {string} again
 */
export async function chooseUnlockCode(userId, code, again) {
  if (!/^[0-9]{4,6}$/.test(code)) throw refusal('pin', 'The unlock code must be 4 to 6 digits.', { reason: 'format' });
  if (accountPinForSetup !== null && code === accountPinForSetup) {
    throw refusal('pin', 'That is your account PIN. Choose different digits: this code is kept on the device, '
      + 'and a stolen device must not give your account PIN away.', { reason: 'accountPin' });
  }
  if (code !== again) throw refusal('again', 'The two codes differ. Type the same unlock code twice.', { reason: 'differ' });
  await setLocalPin(userId, code);
  accountPinForSetup = null;
  markUnlocked(userId);
}

/**
 * What the lock needs of the browser's passkeys: whether a platform authenticator is there, and the
 * gesture (true when a key enrolled here verified the user).
 * @typedef {{platformAvailable: () => Promise<boolean>, gesture: (userId: string, signal: AbortSignal) => Promise<boolean>}} LockPasskeys
 */

export class LockScreen {
  /**
   * @param {string} userId
   * @param {{passkeys: LockPasskeys, signOut: () => Promise<unknown>, onChange?: (state: any) => void}} options
   *   `signOut` ends the session (the app's).
   */
  constructor(userId, { passkeys, signOut, onChange }) {
    this.userId = userId;
    this.passkeys = passkeys;
    this.signOutApp = signOut;
    this.onChange = onChange;
    this.hasPin = hasLocalPin(userId);
    this.hasKey = localCredentials(userId).length > 0;
    /** @type {AbortController | null} */
    this.gesture = null;
    /** The passkey attempt under way: an older one that settles late changes nothing. */
    this.attempt = 0;
    this.stopped = false;
    /** @type {any} */
    this.state = { kind: this.hasPin || this.hasKey ? 'locked' : 'none', hasPin: this.hasPin, hasKey: this.hasKey, note: null };
  }

  /** @param {string} kind @param {object} [more] */
  show(kind, more = {}) {
    if (this.stopped) return this.state;
    this.state = { kind, hasPin: this.hasPin, hasKey: this.hasKey, ...(kind === 'locked' ? { note: null } : {}), ...more };
    this.onChange?.(this.state);
    return this.state;
  }

  /** The screen as it opens; with a key here, the passkey prompt at once when the device has an authenticator. */
  async start() {
    this.show(this.state.kind);
    if (!this.hasKey) return this.state;
    if (await this.passkeys.platformAvailable()) return this.tryPasskey();
    return this.hasPin ? this.show('locked', { note: 'noAuthenticator' }) : this.state;
  }

  /** The passkey gesture (a prompt still open is withdrawn first). */
  async tryPasskey() {
    const mine = ++this.attempt;
    this.gesture?.abort();
    const gesture = new AbortController();
    this.gesture = gesture;
    this.show('verifying');
    try {
      const ok = await this.passkeys.gesture(this.userId, gesture.signal);
      if (mine !== this.attempt) return this.state;
      this.gesture = null;
      return ok ? this.unlock('passkey') : this.show('locked', { note: 'notVerified' });
    } catch (error) {
      if (mine !== this.attempt) return this.state;
      this.gesture = null;
      return this.show('locked', { note: 'failed', error });
    }
  }

  /**
   * The unlock code's form. Rejects (the state kept) on a code that is not 4 to 6 digits or a
   * wrong one; the last wrong one in a row signs out.
   * @param {string} code
   */
  async unlockWithCode(code) {
    if (!/^[0-9]{4,6}$/.test(code)) throw refusal('pin', 'Enter the 4 to 6 digit unlock code of this device.');
    if (await checkLocalPin(this.userId, code)) {
      localStorage.removeItem(failKey(this.userId));
      return this.unlock('code');
    }
    const failures = Number(localStorage.getItem(failKey(this.userId)) || '0') + 1;
    if (failures >= MAX_PIN_FAILURES) {
      localStorage.removeItem(failKey(this.userId));
      return this.signOut();
    }
    localStorage.setItem(failKey(this.userId), String(failures));
    const left = MAX_PIN_FAILURES - failures;
    throw Object.assign(new Error(`That unlock code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before you are signed out `
      + '(then you sign in again with your account PIN and choose a new code).'), { left });
  }

  /** Sign out: the session ends (then the account PIN signs in again). */
  async signOut() {
    const state = this.show('signedOut');
    await this.signOutApp();
    return state;
  }

  /** The screen is gone: a passkey prompt is withdrawn, nothing more is shown. */
  stop() {
    this.stopped = true;
    this.gesture?.abort();
    this.gesture = null;
  }

  /** @param {'passkey' | 'code'} via @private */
  unlock(via) {
    markUnlocked(this.userId);
    return this.show('unlocked', { via });
  }
}
