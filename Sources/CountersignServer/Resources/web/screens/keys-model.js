// @ts-check
/**
 * Device keys without their DOM (the view is keys.js): the user's keys, which of them this browser
 * holds, enrolling a passkey and revoking one. The step-up is the PIN (alone only soon after a code
 * opened the session; else with a `bind-device` code, and the key then starts in a cooling-off with
 * a payment limit) or a signature from a key the user has.
 *
 * States (`state.kind`): ready {credentials, here (the ids this browser enrolled), security (or
 * null), coolingUntil (the newest key's cooling-off, or null), needsCode (the PIN needs a code with
 * it), done: null | 'added' | 'revoked' | 'codeNeeded' (what the action just drawn did)}.
 * A refusal rejects (refusals.js), the state kept: `field: 'pin'` or `'code'`, else on the form.
 */
import { forgetCredential, keepCredentials, localCredentials, rememberCredential } from './lock-model.js';
import { codeRefused, pinLocked, refusal, reworded } from './refusals.js';
import { inDuration } from '../ui.js';

/** @typedef {() => ({verificationId: string, code: string} | null)} Proof */

export class DeviceKeys {
  /**
   * @param {any} api the Countersign client: credentials, accountSecurity, registerPasskey, revokeCredential
   * @param {{userId: string, paymentPasskeys: () => Promise<boolean>, onChange?: (state: any) => void}} options
   *   `paymentPasskeys` says whether the browser offers Secure Payment Confirmation.
   */
  constructor(api, { userId, paymentPasskeys, onChange }) {
    this.api = api;
    this.userId = userId;
    this.paymentPasskeys = paymentPasskeys;
    this.onChange = onChange;
    this.needsCode = false;
    /** @type {any} */
    this.state = { kind: 'ready', credentials: [], here: [], security: null, coolingUntil: null, needsCode: false, done: null };
  }

  /**
   * Reads the keys (and the account's cooling-off limit, if it can); this browser forgets the keys
   * the server no longer lists, so a key revoked elsewhere stops unlocking here too.
   * @param {null | 'added' | 'revoked'} [done]
   */
  async load(done = null) {
    const [{ credentials }, security] = await Promise.all([
      this.api.credentials(), this.api.accountSecurity().catch(() => null),
    ]);
    keepCredentials(this.userId, credentials.map((/** @type {any} */ c) => c.id));
    const coolingUntil = credentials.map((/** @type {any} */ c) => c.coolingOffUntil).filter(Boolean).sort().pop() ?? null;
    return this.show({ credentials, here: localCredentials(this.userId), security, coolingUntil, done });
  }

  /**
   * Enrols a passkey, stepped up by the PIN (with a code when the server asks for one: the state
   * then says so) or, with `pin` null, by a key the user has.
   * @param {string | null} pin @param {Proof} proof the code step's
   */
  async enrol(pin, proof) {
    if (pin !== null && !/^[0-9]{4,6}$/.test(pin)) throw refusal('pin', 'Enter your account PIN: 4 to 6 digits.');
    /** @type {{verificationId?: string, code?: string}} */
    let code = {};
    if (pin !== null && this.needsCode) {
      const given = proof();
      if (!given) return this.state;
      code = given;
    }
    /** @type {any} */
    let result;
    try {
      result = await this.register(pin, code);
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e && e.code === 'phone_code_required') {
        this.needsCode = true;
        return this.show({ ...this.state, done: 'codeNeeded' });
      }
      throw codeRefused(e) ?? explained(e);
    }
    rememberCredential(this.userId, result.credentialId);
    this.needsCode = false;
    return this.load('added');
  }

  /** Revokes a key: it authorizes nothing more, and no longer unlocks this browser. @param {string} id */
  async revoke(id) {
    await this.api.revokeCredential(id);
    forgetCredential(this.userId, id);
    return this.load('revoked');
  }

  /** @param {object} state @private */
  show(state) {
    this.state = { kind: 'ready', ...state, needsCode: this.needsCode };
    this.onChange?.(this.state);
    return this.state;
  }

  /**
   * Registers a passkey; where the browser offers Secure Payment Confirmation, one usable with it
   * (and, if this device cannot make one, an ordinary passkey), unless a code steps up.
   * @param {string | null} pin
   * @param {{verificationId?: string, code?: string}} code a `bind-device` code, if one was asked for
   * @private
   */
  async register(pin, code) {
    const stepUp = pin ? { pin, ...code } : {};
    // A code is spent by the first creation options: with one there is no second try without the
    // payment extension, so a code binds an ordinary passkey.
    if (!code.code && await this.paymentPasskeys()) {
      try {
        return await this.api.registerPasskey({ ...stepUp, payment: true });
      } catch (error) {
        if (/** @type {any} */ (error)?.name !== 'NotSupportedError') throw error;
      }
    }
    return this.api.registerPasskey(stepUp);
  }
}

/**
 * An enrolment's failure in the screen's words where it has some of its own.
 * @param {any} e
 */
function explained(e) {
  if (e && e.code === 'device_cooling_off') {
    return reworded(`A device joined your account recently, so a passkey cannot be added yet${e.retryAfter ? `: it can ${inDuration(e.retryAfter)}` : ''}. `
      + 'A passkey you already have can add this one at once.', e);
  }
  if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return new Error('Adding the passkey was cancelled. Nothing was added.');
  if (e && e.name === 'InvalidStateError') return new Error('This device already holds one of your keys.');
  return pinLocked(e) ?? e;
}
