// @ts-check
/**
 * A forgotten PIN without its DOM (the view is recover.js): a code to the number sets a new one and
 * signs in. With the code alone the server holds PIN payments back for a cooling-off (a stolen SIM
 * must not pay at once); the last state says until when.
 *
 * States (`state.kind`): form, done {coolingUntil} (the PIN payments' cooling-off, or null when
 * none or the account's security could not be read). A refusal rejects (refusals.js), the form
 * kept: `field` 'pin', 'again' or 'code', else on the form.
 */
import { markUnlocked } from './lock-model.js';
import { codeRefused, pinRefused, refusal } from './refusals.js';

export class PinReset {
  /**
   * @param {any} api the Countersign client: resetPin, accountSecurity
   * @param {{refreshUser: () => Promise<any>, onChange?: (state: any) => void}} options
   *   `refreshUser` loads the user the new session belongs to (the app's).
   */
  constructor(api, { refreshUser, onChange }) {
    this.api = api;
    this.refreshUser = refreshUser;
    this.onChange = onChange;
    /** @type {any} */
    this.state = { kind: 'form' };
  }

  /**
   * Sets the new PIN with the code (`proof` gives it, or null when the step says what is missing);
   * the reset signs in, and this tab counts as unlocked.
   * @param {{proof: () => ({verificationId: string, code: string} | null), pin: string, again: string}} fields
   */
  async reset({ proof, pin, again }) {
    const code = proof();
    if (!code) return this.state;
    if (!/^[0-9]{4,6}$/.test(pin)) throw refusal('pin', 'The PIN must be 4 to 6 digits.');
    if (pin !== again) throw refusal('again', 'The two PINs differ.');
    try {
      await this.api.resetPin({ ...code, newPin: pin });
    } catch (error) {
      throw codeRefused(error) ?? pinRefused(error) ?? error;
    }
    const user = await this.refreshUser();
    if (user) markUnlocked(user.userId);
    const security = await this.api.accountSecurity().catch(() => null);
    this.state = { kind: 'done', coolingUntil: security?.pinCoolingOffUntil ?? null };
    this.onChange?.(this.state);
    return this.state;
  }
}
