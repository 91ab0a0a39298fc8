// @ts-check
/**
 * The airtime payment without its DOM (the view is airtime.js): the intent → options bound to it →
 * the page recomputes the challenge → the passkey signs → verify → top-up; the PIN as fallback.
 * Each of the seed's error flows ends in a state of its own: no passkey here → PIN; the user
 * cancelled → nothing charged; verification failed (401) → retry; locked (423) → when it unlocks.
 * The view renders `state` on every change and forwards the user's actions to the methods below.
 *
 * States (`state.kind`), each with the `intent`:
 *   form, review {options, pinAllowed}, processing, pin {reason, offerPasskey},
 *   passkeyNeeded {error} (the PIN alone may not pay this), success {result, by},
 *   supplierFailed {result}, cancelled {wallet}, verifyFailed {error}, locked {error, until},
 *   refused {error} (the server asked to sign something else), problem {error}.
 * An action refused where the user acted (a balance too low on the form, a wrong PIN, a gesture
 * that failed for another reason than a "no") rejects and leaves the state as it was: the view
 * says so there.
 */
import { newIdempotencyKey } from '../countersign.js';
import { money, parseMoney } from '../ui.js';
import { networkName } from './receipt.js';
import { refusal, reworded } from './refusals.js';

/** @typedef {{amount: number, productCode: string, recipientPhone: string, useCashback: boolean}} Intent */
/**
 * What the model needs of the browser's passkeys: whether it has WebAuthn at all, whether a
 * platform authenticator is there, and a signature over request options.
 * @typedef {{supported: () => boolean, platformAvailable: () => Promise<boolean>,
 *   sign: (options: any, opts: {signal: AbortSignal, label: string}) => Promise<{assertion: any, via: string}>}} Passkeys
 */

/** The form's bounds: ₦1 to ₦500,000. */
export const MIN_AMOUNT = 100;
export const MAX_AMOUNT = 50000000;
/** How long a lock lasts when the server's 423 does not say: its default, 15 minutes. */
const DEFAULT_LOCK_SECONDS = 900;

/**
 * The form's fields → the intent, or what is wrong and with which field.
 * @param {{amount: string, productCode: string, recipientPhone: string, useCashback: boolean}} fields
 * @returns {{intent: Intent} | {error: string, field: 'amount' | 'recipient'}}
 */
export function readIntent(fields) {
  const minor = parseMoney(fields.amount);
  if (minor === null || minor < MIN_AMOUNT || minor > MAX_AMOUNT) {
    return { error: 'Enter an amount between ₦1 and ₦500,000 (at most two decimals).', field: 'amount' };
  }
  const phone = fields.recipientPhone.trim();
  if (!phone) return { error: 'Enter the phone number to top up.', field: 'recipient' };
  return { intent: { amount: minor, productCode: fields.productCode, recipientPhone: phone, useCashback: fields.useCashback } };
}

export class AirtimeFlow {
  /**
   * @param {any} api the Countersign client: wallet, airtimeOptions, checkAirtimeOptions, topUp, buyAirtimeWithPin
   * @param {{phone: string, passkeys: Passkeys, onChange?: (state: any) => void, now?: () => number}} options
   */
  constructor(api, { phone, passkeys, onChange, now = Date.now }) {
    this.api = api;
    this.passkeys = passkeys;
    this.onChange = onChange;
    this.now = now;
    /** @type {Intent} */
    this.intent = { amount: 0, productCode: 'AIRTIME_MTN', recipientPhone: phone, useCashback: false };
    /**
     * What the server's options said of the PIN for the current intent: false once it said the PIN
     * alone may not pay it (over the PIN allowance), so only the passkey is offered.
     */
    this.pinAllowed = true;
    /** @type {AbortController | null} */
    this.gesture = null;
    this.stopped = false;
    /** @type {any} */
    this.state = { kind: 'form', intent: this.intent };
  }

  /** @param {string} kind @param {object} [more] */
  show(kind, more = {}) {
    if (this.stopped) return this.state;
    this.state = { kind, intent: this.intent, ...more };
    this.onChange?.(this.state);
    return this.state;
  }

  /** The screen is gone: a passkey prompt is withdrawn, nothing more is shown. */
  stop() {
    this.stopped = true;
    this.gesture?.abort();
  }

  /** Back to the form, the intent kept. */
  backToForm() {
    return this.show('form');
  }

  /** The form's Continue: checks the balance, then asks for options bound to the intent. @param {Intent} intent */
  async continue(intent) {
    this.intent = intent;
    return this.prepare();
  }

  /** The form's "Pay with PIN instead". @param {Intent} intent */
  async payWithPinInstead(intent) {
    this.intent = intent;
    await this.ensureAffordable();
    await this.askPinAllowed();
    return this.showPin(null);
  }

  /** "Pay with PIN instead" from the review, a cancelled gesture or a failed verification. */
  usePin() {
    return this.showPin(null);
  }

  /** Tries a passkey again, on any authenticator (a phone, a security key): from the PIN and passkey screens. */
  tryPasskey() {
    return this.prepare({ anyAuthenticator: true });
  }

  /** "Try again" after a failed verification. */
  retry() {
    return this.prepare();
  }

  /**
   * Refuses, before any gesture, a top-up the wallet (and the cashback, when chosen) cannot pay:
   * the PIN path has no options call to refuse it. The server checks again when it debits.
   */
  async ensureAffordable() {
    const wallet = await this.api.wallet();
    const available = wallet.balance + (this.intent.useCashback ? wallet.cashback : 0);
    if (available < this.intent.amount) {
      throw Object.assign(new Error(`Your balance (${money(available, wallet.currency)}) is too low for this top-up. `
        + 'Lower the amount, or add money first. Nothing was charged.'), { code: 'insufficient_funds' });
    }
  }

  /**
   * Asks the server, before the PIN is typed, whether the PIN alone may pay this intent: the options
   * say so (`pinAllowed`); with no passkey the options are refused, and the refusal says it.
   */
  async askPinAllowed() {
    try {
      const options = await this.api.airtimeOptions(this.bare());
      this.pinAllowed = options.pinAllowed !== false;
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e.code === 'no_registered_credential') this.pinAllowed = true;
      else if (e.code === 'strong_authentication_required') this.pinAllowed = false;
      else throw error;
    }
  }

  /** The intent without useCashback: what the options and the challenge cover. */
  bare() {
    const { useCashback, ...rest } = this.intent;
    return rest;
  }

  /** Options, the challenge checked, then the review. @param {{anyAuthenticator?: boolean}} opts */
  async prepare({ anyAuthenticator = false } = {}) {
    await this.ensureAffordable();
    this.pinAllowed = true;
    if (!this.passkeys.supported()) {
      await this.askPinAllowed();
      return this.showPin('This browser cannot use passkeys. Pay with your PIN instead.');
    }
    if (!anyAuthenticator && !(await this.passkeys.platformAvailable())) {
      await this.askPinAllowed();
      return this.showPin('Biometric authentication is not available on this device. Pay with your PIN instead.', true);
    }
    /** @type {any} */
    let options;
    try {
      options = await this.api.airtimeOptions(this.bare());
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e.status === 422 && e.code === 'no_registered_credential') {
        return this.showPin('You have no device key yet, so pay with your PIN (or add a passkey under Keys).');
      }
      if (e.status === 423) return this.showLocked(e);
      if (e.code === 'strong_authentication_required') return this.show('passkeyNeeded', { error: e });
      throw error;
    }
    if (this.stopped) return this.state;
    this.pinAllowed = options.pinAllowed !== false;
    try {
      await this.api.checkAirtimeOptions(options, this.bare());
    } catch (error) {
      return this.show('refused', { error });
    }
    return this.show('review', { options, pinAllowed: this.pinAllowed });
  }

  /**
   * The review's "Confirm with passkey": the gesture, then the top-up carrying the assertion. A gesture that fails for
   * another reason than the user's "no" (or a browser without passkeys) rejects, the review kept.
   */
  async confirm() {
    const options = this.state.options;
    const idempotencyKey = newIdempotencyKey();
    this.gesture = new AbortController();
    /** @type {{assertion: any, via: string}} */
    let signed;
    try {
      signed = await this.passkeys.sign(options, {
        signal: this.gesture.signal, label: `${networkName(this.intent.productCode)} airtime`,
      });
    } catch (error) {
      if (this.stopped) return this.state;
      const e = /** @type {any} */ (error);
      if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return this.showCancelled();
      if (e && (e.name === 'NotSupportedError' || e.name === 'SecurityError')) {
        return this.showPin('Biometric authentication is not available here. Pay with your PIN instead.');
      }
      throw error;
    }
    this.show('processing');
    try {
      // Two calls: the assertion goes with the payment, checked there as verify would check it.
      const result = await this.api.topUp({ ...this.intent, assertion: signed.assertion }, { idempotencyKey });
      return this.showResult(result, signed.via === 'spc' ? 'passkey (Secure Payment Confirmation)' : 'passkey');
    } catch (error) {
      if (this.stopped) return this.state;
      const e = /** @type {any} */ (error);
      if (e.status === 423) return this.showLocked(e);
      if (e.status === 401 || e.status === 403) return this.show('verifyFailed', { error: e });
      return this.show('problem', {
        error: e.code === 'insufficient_funds'
          ? reworded('Your wallet balance is too low for this top-up. Nothing was charged.', e) : e,
      });
    }
  }

  /**
   * The PIN form's Pay: a PIN that is not 4 to 6 digits (rejected with `field: 'pin'`, nothing
   * sent), or one the server refuses, rejects with the form kept.
   * @param {string} pin
   */
  async payWithPin(pin) {
    if (!/^[0-9]{4,6}$/.test(pin)) throw refusal('pin', 'Enter your 4 to 6 digit PIN.');
    try {
      const result = await this.api.buyAirtimeWithPin(this.intent, pin, { idempotencyKey: newIdempotencyKey() });
      return this.showResult(result, 'PIN');
    } catch (error) {
      if (this.stopped) return this.state;
      const e = /** @type {any} */ (error);
      if (e.status === 423) return this.showLocked(e);
      if (e.code === 'strong_authentication_required') {
        this.pinAllowed = false;
        return this.show('passkeyNeeded', { error: e });
      }
      throw e.code === 'authorization_failed' ? reworded('Payment authorization failed. Check your PIN and try again.', e) : error;
    }
  }

  /**
   * The PIN form, unless the PIN alone may not pay this intent.
   * @param {string | null} reason @param {boolean} [offerPasskey] offer a passkey on another device
   */
  showPin(reason, offerPasskey = false) {
    if (!this.pinAllowed) return this.show('passkeyNeeded', { error: null });
    return this.show('pin', { reason, offerPasskey });
  }

  /** @param {any} result the top-up's answer @param {string} by */
  showResult(result, by) {
    return result.success ? this.show('success', { result, by }) : this.show('supplierFailed', { result });
  }

  /** The gesture was declined: nothing charged, with the balance when the server gives it. */
  async showCancelled() {
    let wallet = null;
    try {
      wallet = await this.api.wallet();
    } catch {
      // The balance line is a courtesy; the screen stands without it.
    }
    return this.show('cancelled', { wallet });
  }

  /** @param {any} error a 423, whose retryAfter says for how long */
  showLocked(error) {
    return this.show('locked', { error, until: this.now() + (error.retryAfter || DEFAULT_LOCK_SECONDS) * 1000 });
  }
}
