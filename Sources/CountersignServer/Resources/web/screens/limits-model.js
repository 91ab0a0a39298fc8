// @ts-check
/**
 * The account's spending limits without their DOM (the view is limits.js): the limits per currency,
 * one of them being changed, and the change saved. Lowering a limit applies at once; raising one
 * (up to the tier's) is confirmed with a passkey (`assert`, passed in) and applies after the
 * server's delay. The view renders `state` on every change and forwards the user's actions.
 *
 * States (`state.kind`):
 *   loading, shown {limits, editing: {currency, kind} | null, notice: string | null},
 *   failed {error} (the limits could not be read).
 * An action refused where the user acted (an amount that is not one, over the tier's, a passkey
 * cancelled, the server's refusal) rejects (`field: 'amount'` when the amount is wrong) and leaves the state as it was: the view says so there.
 */
import { money, parseMoney } from '../ui.js';
import { refusal } from './refusals.js';

/** A refusal of the amount typed (`field: 'amount'`: the view puts the focus there). @param {string} message */
const amountError = (message) => refusal('amount', message);

export class LimitsModel {
  /**
   * @param {any} api the Countersign client: limits, stepUpOptions, setLimit
   * @param {{assert: (options: any) => Promise<any>, onChange?: (state: any) => void}} options
   *   `assert`: the passkey's assertion over step-up options
   */
  constructor(api, { assert, onChange }) {
    this.api = api;
    this.assert = assert;
    this.onChange = onChange;
    /** @type {any} */
    this.limits = null;
    this.stopped = false;
    /** @type {any} */
    this.state = { kind: 'loading' };
  }

  /** The screen is gone: nothing more is drawn. */
  stop() {
    this.stopped = true;
  }

  /** Reads the limits; a failure is the `failed` state. */
  async load() {
    try {
      await this.reload(null);
    } catch (error) {
      if (!this.stopped) this.move({ kind: 'failed', error });
    }
  }

  /** @private @param {string | null} notice */
  async reload(notice) {
    const limits = await this.api.limits();
    if (this.stopped) return;
    this.limits = limits;
    this.move({ kind: 'shown', limits, editing: null, notice });
  }

  /** Opens one limit's form. @param {string} currency @param {string} kind */
  edit(currency, kind) {
    if (this.state.kind !== 'shown') return;
    this.move({ ...this.state, editing: { currency, kind } });
  }

  /** Closes the form: the limits read again. */
  cancel() {
    return this.load();
  }

  /**
   * Saves the limit being edited at `text` (in major units); rejects with what is wrong.
   * @param {string} text
   */
  async save(text) {
    const editing = this.state.editing;
    if (this.state.kind !== 'shown' || !editing) throw new Error('No limit is being changed.');
    const { currency } = editing;
    const l = this.limitOf(currency, editing.kind);
    const minor = parseMoney(text.trim() === '0' ? '0.00' : text);
    if (minor === null || minor < 0) throw amountError('Enter an amount, at most two decimals.');
    if (l.tierLimit != null && minor > l.tierLimit) {
      throw amountError(`Your tier allows at most ${money(l.tierLimit, currency)} here; ask us for a higher tier.`);
    }
    /** @type {any} */
    const request = { currency, kind: l.kind, amount: minor };
    if (l.limit != null && minor > l.limit) {
      // A raise: the passkey confirms it.
      const options = await this.api.stepUpOptions();
      try {
        request.stepUp = await this.assert(options);
      } catch (error) {
        const e = /** @type {any} */ (error);
        if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) {
          throw new Error('You cancelled the passkey, so the limit was not raised.');
        }
        throw error;
      }
    }
    await this.api.setLimit(request);
    if (this.stopped) return;
    await this.reload(request.stepUp
      ? `Raise saved. It applies after the waiting period; until then your limit stays ${money(l.limit, currency)}.`
      : 'Limit lowered. It applies now.');
  }

  /** @private @param {string} currency @param {string} kind */
  limitOf(currency, kind) {
    const c = this.limits.currencies.find((/** @type {any} */ x) => x.currency === currency);
    return c.limits.find((/** @type {any} */ x) => x.kind === kind);
  }

  /** @private @param {any} state */
  move(state) {
    this.state = state;
    if (!this.stopped) this.onChange?.(state);
  }
}
