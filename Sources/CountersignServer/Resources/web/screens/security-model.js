// @ts-check
/**
 * Security without its DOM (the view is security.js): the account's number and whether a code
 * proved it, PIN locks and cooling-offs, the devices that may sign in with the PIN alone (each can
 * be forgotten), recent security activity, and a change of number (a code to the new number, and
 * the PIN with a code to the current one).
 *
 * States (`state.kind`): ready {security, devices, events, done: null | 'deviceForgotten' |
 * 'numberChanged' (what the action just drawn did), phone (the new number, after a change)},
 * signedOut (this device was forgotten: its session ended with it).
 * A refusal rejects (refusals.js), the state kept: `field: 'pin'`, else on the form.
 */
import { explainError } from '../ui.js';
import { CODE_ERRORS } from './phone-code.js';
import { pinLocked, refusal, reworded } from './refusals.js';

/** @typedef {() => ({verificationId: string, code: string} | null)} Proof */

export class SecurityScreen {
  /**
   * @param {any} api the Countersign client: accountSecurity, devices, activity, forgetDevice, changePhone
   * @param {{refreshUser: () => Promise<unknown>, signOut: () => Promise<unknown>, onChange?: (state: any) => void}} options
   *   the app's: `refreshUser` reloads the profile (its number), `signOut` ends the session here.
   */
  constructor(api, { refreshUser, signOut, onChange }) {
    this.api = api;
    this.refreshUser = refreshUser;
    this.signOut = signOut;
    this.onChange = onChange;
    /** @type {any} */
    this.state = null;
  }

  /**
   * Reads the account's security, devices and activity.
   * @param {{done: string | null, phone?: string}} [done] what the action did
   */
  async load(done = { done: null }) {
    const [security, devices, activity] = await Promise.all([
      this.api.accountSecurity(), this.api.devices(), this.api.activity(),
    ]);
    return this.show({ kind: 'ready', security, devices: devices.devices, events: activity.events, ...done });
  }

  /**
   * Forgets a device: its sessions end, and it needs a code to sign in again. Forgetting this one
   * signs out here.
   * @param {{id: string, current: boolean}} device
   */
  async forgetDevice(device) {
    await this.api.forgetDevice(device.id);
    if (device.current) {
      // Its sessions ended with it, this one too.
      this.show({ kind: 'signedOut' });
      await this.signOut();
      return this.state;
    }
    return this.load({ done: 'deviceForgotten' });
  }

  /**
   * Moves the account to a new number: its code (`newCode`), the PIN, and a code to the current
   * number (`oldCode`), each asked for in that order (a code step gives null when it says what is missing).
   * @param {{newCode: Proof, pin: string, oldCode: Proof}} fields
   */
  async changeNumber({ newCode, pin, oldCode }) {
    const proof = newCode();
    if (!proof) return this.state;
    if (!/^[0-9]{4,6}$/.test(pin)) throw refusal('pin', 'Enter your 4 to 6 digit account PIN.');
    const stepUp = oldCode();
    if (!stepUp) return this.state;
    /** @type {any} */
    let security;
    try {
      security = await this.api.changePhone({ ...proof, stepUp: { pin, ...stepUp } });
    } catch (error) {
      const e = /** @type {any} */ (error);
      // Which of the two codes was wrong the server does not say.
      if (e && CODE_ERRORS.includes(e.code)) throw reworded(`${explainError(e).what} Check both codes.`, e);
      throw pinLocked(e) ?? error;
    }
    await this.refreshUser();
    return this.load({ done: 'numberChanged', phone: security.phone });
  }

  /** @param {any} state @private */
  show(state) {
    this.state = state;
    this.onChange?.(state);
    return state;
  }
}
