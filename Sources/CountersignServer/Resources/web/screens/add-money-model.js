// @ts-check
/**
 * Add money without its DOM (the view is add-money.js): a funding of one wallet by card or bank
 * through the payment provider (`AddMoneyForm`), then its result, asked for again while the
 * provider or the bank still works on it (`FundingResult`). What needs the browser (the redirect to
 * the provider's page, the app's navigation, this tab's storage, the wait between polls) is passed
 * in. The view renders `state` on every change and forwards the user's actions.
 *
 * `AddMoneyForm` states (`state.kind`): loading, form {wallets, cards, currency}.
 *   `start` refused where the user acted rejects, the state kept: an amount that is not one
 *   (`field: 'amount'`), a card payment with no saved card, the server's refusal.
 * `FundingResult` states: none (no funding to check), checking, shown {funding} (again on each
 *   poll while `funding.status` is pending), failed {error}.
 */
import { newIdempotencyKey } from '../countersign.js';
import { parseMoney } from '../ui.js';
import { refusal } from './refusals.js';

/** Where the funding a redirect is about is kept until the payer comes back (this tab only). */
export const PENDING_KEY = 'countersign.funding';
const POLL_MS = 2000;
const POLLS = 30;

/**
 * The methods each currency offers, as the server does: [value, words].
 * @param {string} currency
 * @returns {Array<[string, string]>}
 */
export function methodsFor(currency) {
  return currency === 'EUR'
    ? [['card', 'Card'], ['ideal', 'iDEAL'], ['bancontact', 'Bancontact']]
    : [['card', 'Card']];
}

/** @typedef {{getItem: (key: string) => string | null, setItem: (key: string, value: string) => void, removeItem: (key: string) => void}} Storage */

export class AddMoneyForm {
  /**
   * @param {any} api the Countersign client: wallet, market.cards, createFunding
   * @param {{returnURL: string, redirect: (url: string) => void, navigate: (path: string) => void,
   *   storage: Storage, onChange?: (state: any) => void}} options `returnURL`: where the provider's page
   *   sends the payer back
   */
  constructor(api, { returnURL, redirect, navigate, storage, onChange }) {
    this.api = api;
    this.returnURL = returnURL;
    this.redirect = redirect;
    this.navigate = navigate;
    this.storage = storage;
    this.onChange = onChange;
    /** One key per set of values: a retry of the same funding never pays twice. */
    this.key = { values: '', id: '' };
    /** @type {any} */
    this.state = { kind: 'loading' };
  }

  /** Reads the wallets and saved cards (a failure rejects); `wanted` is the wallet asked for. @param {string | null} wanted */
  async load(wanted) {
    const [wallet, cards] = await Promise.all([this.api.wallet(), this.api.market.cards()]);
    const wallets = wallet.wallets || [wallet];
    const currencies = wallets.map((/** @type {any} */ w) => w.currency);
    const currency = wanted && currencies.includes(wanted) ? wanted : currencies[0];
    this.state = { kind: 'form', wallets, cards, currency };
    this.onChange?.(this.state);
  }

  /**
   * Starts the funding: off to the provider's page, or straight to the result.
   * @param {{currency: string, amount: string, method: string, card: string}} fields
   */
  async start(fields) {
    const minor = parseMoney(fields.amount);
    if (minor === null || minor <= 0) {
      throw refusal('amount', 'Enter an amount, for example 50 or 50.00.');
    }
    if (fields.method === 'card' && this.state.cards.length === 0) {
      throw new Error('Save a card first, or choose iDEAL or Bancontact for your euro wallet.');
    }
    /** @type {any} */
    const body = { amount: minor, currency: fields.currency, method: fields.method, returnURL: this.returnURL };
    if (fields.method === 'card') body.paymentMethodId = fields.card;
    const values = JSON.stringify(body);
    if (this.key.values !== values) this.key = { values, id: newIdempotencyKey() };
    const funding = await this.api.createFunding(body, { idempotencyKey: this.key.id });
    if (funding.redirectURL) {
      this.storage.setItem(PENDING_KEY, funding.fundingId);
      this.redirect(funding.redirectURL);
      return;
    }
    this.navigate(`/add-money/${encodeURIComponent(funding.fundingId)}`);
  }
}

export class FundingResult {
  /**
   * @param {any} api the Countersign client: funding
   * @param {string} id the funding, or 'return' for the one kept before the redirect
   * @param {{storage: Storage, onChange?: (state: any) => void, wait?: (ms: number) => Promise<void>,
   *   polls?: number}} options
   */
  constructor(api, id, { storage, onChange, wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms)), polls = POLLS }) {
    this.api = api;
    this.storage = storage;
    this.id = id === 'return' ? storage.getItem(PENDING_KEY) : id;
    this.onChange = onChange;
    this.wait = wait;
    this.polls = polls;
    this.stopped = false;
    /** @type {any} */
    this.state = { kind: this.id ? 'checking' : 'none' };
  }

  /** Asks for the funding until it is no longer pending (or the polls run out). */
  async start() {
    if (!this.id) return;
    for (let poll = 0; !this.stopped && poll < this.polls; poll++) {
      try {
        const funding = await this.api.funding(this.id);
        if (this.stopped) return;
        this.move({ kind: 'shown', funding });
        if (funding.status !== 'pending') {
          this.storage.removeItem(PENDING_KEY);
          return;
        }
      } catch (error) {
        if (!this.stopped) this.move({ kind: 'failed', error });
        return;
      }
      await this.wait(POLL_MS);
    }
  }

  /** The screen is gone: no more polls. */
  stop() {
    this.stopped = true;
  }

  /** @private @param {any} state */
  move(state) {
    this.state = state;
    this.onChange?.(state);
  }
}
