// @ts-check
/**
 * Sign in and sign up without their DOM (the view is auth.js). Signing in takes phone and PIN in a
 * browser that held a session of the user before (the server's device cookie), and a code besides
 * anywhere else (401 `phone_code_required`); or a passkey (discoverable credential), also offered
 * in the phone field's autofill (conditional mediation). Signing up proves the number with an SMS
 * code first, then takes the name and a PIN.
 *
 * SignIn's states (`state.kind`): password (phone and PIN), withCode (this browser is new to the
 * account: a code with them), signedIn. Either form state may carry `passkeyError`: the autofill's
 * passkey sign-in failed. SignUp's: form, signedIn.
 *
 * The SMS code is the code step's (code-step.js over phone-code.js): the view passes `proof`, which
 * gives `{verificationId, code}` or null (the step then says what is missing), asked for only
 * after the fields before it are right. A refusal rejects (refusals.js), the state kept: with
 * `field` ('phone', 'pin', 'again', 'name', 'code') when one field is to fix, else on the form.
 */
import { describeError } from '../ui.js';
import { codeRefused, pinLocked, pinRefused, refusal } from './refusals.js';

/** @typedef {() => ({verificationId: string, code: string} | null)} Proof */

const PIN = /^[0-9]{4,6}$/;

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

export class SignIn {
  /**
   * @param {any} api the Countersign client: login, loginWithPasskey
   * @param {{signedIn: () => Promise<unknown>, conditionalAvailable: () => Promise<boolean>,
   *   onChange?: (state: any) => void}} options `signedIn` takes the app to where the user was going;
   *   `conditionalAvailable` says whether the browser offers passkeys in autofill.
   */
  constructor(api, { signedIn, conditionalAvailable, onChange }) {
    this.api = api;
    this.signedIn = signedIn;
    this.conditionalAvailable = conditionalAvailable;
    this.onChange = onChange;
    /** @type {any} */
    this.state = { kind: 'password' };
    /** @type {AbortController | null} */
    this.conditional = null;
    /** @type {Promise<unknown> | null} */
    this.conditionalDone = null;
    this.stopped = false;
  }

  /** @param {string} kind @param {object} [more] */
  show(kind, more = {}) {
    if (this.stopped) return this.state;
    this.state = { kind, ...more };
    this.onChange?.(this.state);
    return this.state;
  }

  /**
   * Phone and PIN (and the code, when this browser needs one). Rejects with the field to fix; a
   * wrong PIN or any other refusal on the form (the view clears the PIN).
   * @param {{phone: string, pin: string, proof: Proof}} fields
   */
  async signIn({ phone, pin, proof }) {
    if (!phone.trim()) throw refusal('phone', 'Enter the phone number of your account, e.g. 0803 123 4567.');
    if (!PIN.test(pin)) throw refusal('pin', 'Enter your account PIN: 4 to 6 digits.');
    let code = {};
    if (this.state.kind === 'withCode') {
      const given = proof();
      if (!given) return this.state;
      code = given;
    }
    try {
      await this.api.login({ phone: phone.trim(), pin, ...code });
    } catch (error) {
      const e = /** @type {any} */ (error);
      // Not a wrong PIN: this browser needs a code too. The PIN stays for the retry.
      if (e && e.code === 'phone_code_required') return this.show('withCode');
      throw codeRefused(e) ?? pinLocked(e) ?? error;
    }
    await this.stopConditional();
    return this.done();
  }

  /** The passkey button. A cancelled prompt, or no passkey here, rejects in words of its own. */
  async passkey() {
    try {
      await this.stopConditional();
      await this.api.loginWithPasskey();
    } catch (error) {
      throw isAbort(error) ? new Error('Passkey sign-in was cancelled, or this device has no passkey for Countersign.') : error;
    }
    return this.done();
  }

  /**
   * Offers the passkeys in the phone field's autofill where the browser can; its failure (other
   * than a cancel or no passkey) is shown as the form's `passkeyError`.
   */
  async start() {
    let available = false;
    try {
      available = await this.conditionalAvailable();
    } catch {
      return;
    }
    if (!available || this.stopped) return;
    this.conditional = new AbortController();
    this.conditionalDone = this.api.loginWithPasskey({ mediation: 'conditional', signal: this.conditional.signal })
      .then(() => this.done())
      .catch((/** @type {any} */ error) => {
        if (!isAbort(error) && error && error.status && error.status !== 404) this.show(this.state.kind, { passkeyError: error });
      });
    await this.conditionalDone;
  }

  /** The screen is gone: the autofill's request is withdrawn, nothing more is shown. */
  stop() {
    this.stopped = true;
    this.conditional?.abort();
  }

  /** @private */
  async stopConditional() {
    if (this.conditional) {
      this.conditional.abort();
      this.conditional = null;
      await this.conditionalDone?.catch(() => {});
    }
  }

  /** @private */
  async done() {
    if (this.stopped) return this.state;
    await this.signedIn();
    return this.show('signedIn');
  }
}

export class SignUp {
  /**
   * @param {any} api the Countersign client: signup
   * @param {{signedIn: (pin: string) => Promise<unknown>, onChange?: (state: any) => void}} options
   *   `signedIn` takes the app on, with the account PIN just chosen (the unlock code must differ).
   */
  constructor(api, { signedIn, onChange }) {
    this.api = api;
    this.signedIn = signedIn;
    this.onChange = onChange;
    /** @type {any} */
    this.state = { kind: 'form' };
  }

  /**
   * Opens the account. Rejects with the field to fix (`clearAgain` when the repeated PIN is to be
   * typed again), else on the form.
   * @param {{phone: string, proof: Proof, name: string, pin: string, again: string}} fields
   */
  async signUp({ phone, proof, name, pin, again }) {
    if (!phone.trim()) throw refusal('phone', 'Enter your phone number.');
    const code = proof();
    if (!code) return this.state;
    if (!name.trim()) throw refusal('name', 'Enter your name.');
    if (!PIN.test(pin)) throw refusal('pin', 'The PIN must be 4 to 6 digits.');
    if (pin !== again) throw refusal('again', 'The two PINs differ.');
    try {
      await this.api.signup({ ...code, name: name.trim(), pin });
    } catch (error) {
      const e = /** @type {any} */ (error);
      const weak = pinRefused(e);
      if (weak) throw Object.assign(weak, { clearAgain: true });
      if (e && e.code === 'invalid_name') throw refusal('name', describeError(e), { code: e.code, traceId: e.traceId });
      throw codeRefused(e) ?? error;
    }
    await this.signedIn(pin);
    this.state = { kind: 'signedIn' };
    this.onChange?.(this.state);
    return this.state;
  }
}
