// @ts-check
/**
 * The operator console without its DOM (the view is operator.js), for users an operator flagged
 * (`countersign operator grant`); the server checks everything (403 `not_operator` for anyone
 * else). The view renders `state` on every change and forwards the user's actions; where an action
 * asks first (a revocation, a funding, a reversal), the model says when and what through a
 * `confirm` the view passes in, and the view says how.
 *
 * `ConsoleModel` states (`state.kind`): loading, shown {overview, actions, audit, found, searchError}
 *   (`audit`: the last run, null before any; `found`: the users a search found, null before one).
 *   `runAudit` refused rejects; `search` refuses a number that cannot be one (`field: 'phone'`).
 * `OperatorUserModel` states: loading, shown {user, notice} (`notice`: what the last action did).
 *   Every action refused rejects, the state kept: a field typed wrong (`field`: 'pin', 'amount' or
 *   'reason', before any call) or the server's refusal (a PIN locked reworded with when it unlocks).
 */
import { newIdempotencyKey } from '../countersign.js';
import { inDuration, money, parseMoney } from '../ui.js';
import { refusal as fieldError } from './refusals.js';

export class ConsoleModel {
  /**
   * @param {any} api the Countersign client: operatorOverview, operatorActions, operatorRunAudit, operatorSearchUsers
   * @param {{navigate: (path: string, opts: {replace: boolean}) => void, onChange?: (state: any) => void}} options
   */
  constructor(api, { navigate, onChange }) {
    this.api = api;
    this.navigate = navigate;
    this.onChange = onChange;
    /** @type {any} */
    this.state = { kind: 'loading' };
  }

  /**
   * The numbers, the last audit and the action log (a failure rejects), then the users whose number
   * starts with `prefix` if one is given (a failure is the state's `searchError`).
   * @param {string | null} prefix
   */
  async load(prefix) {
    const [overview, { actions }] = await Promise.all([this.api.operatorOverview(), this.api.operatorActions()]);
    this.move({ kind: 'shown', overview, actions, audit: overview.lastAudit ?? null, found: null, searchError: null });
    if (!prefix) return;
    try {
      const { users } = await this.api.operatorSearchUsers(prefix);
      this.move({ ...this.state, found: users });
    } catch (error) {
      this.move({ ...this.state, searchError: error });
    }
  }

  /** Runs the ledger audit now; the action log read again. */
  async runAudit() {
    const audit = await this.api.operatorRunAudit();
    this.move({ ...this.state, audit });
    const { actions } = await this.api.operatorActions();
    this.move({ ...this.state, actions });
  }

  /**
   * A search, kept in the address so Back from a user returns to the results; sent without
   * separators, as a space in a query would arrive as '+'. The server reads the number as the
   * sign-up form does; this only catches what cannot be one.
   * @param {string} text
   */
  search(text) {
    const prefix = text.trim().replace(/\s+/g, ' ');
    if (!/^\+?[0-9][0-9 -]*$/.test(prefix) || prefix.replace(/[^0-9]/g, '').length < 6) {
      throw fieldError('phone', 'Type at least the first 6 digits of the number, e.g. 0803 12 or +234 803.');
    }
    this.navigate(`/operator?phone=${encodeURIComponent(prefix.replace(/[\s-]/g, ''))}`, { replace: true });
  }

  /** @private @param {any} state */
  move(state) {
    this.state = state;
    this.onChange?.(state);
  }
}

/**
 * What the view asks before an action; resolves whether to go on.
 * @typedef {(question: {message: string, confirm?: string}) => Promise<boolean>} Confirm
 */

export class OperatorUserModel {
  /**
   * @param {any} api the Countersign client: operatorUser, operatorUnlock, operatorRevokeKey,
   *   operatorFund, operatorAssignTier, operatorReverseFunding, operatorReverseTransfer
   * @param {string} userId the user shown
   * @param {{me: string, onChange?: (state: any) => void}} options `me`: the operator's own user id
   */
  constructor(api, userId, { me, onChange }) {
    this.api = api;
    this.userId = userId;
    /** The operator's own account: another operator must make changes to it. */
    this.own = userId === me;
    this.onChange = onChange;
    /**
     * One key per funding the operator means: a retry after an error (or a second click) reuses
     * it, so the server credits once; a new amount (`newFunding`), or a funding done, takes a new one.
     */
    this.fundKey = newIdempotencyKey();
    /** @type {any} */
    this.state = { kind: 'loading' };
  }

  /** Reads the user (a failure rejects). */
  async load() {
    this.show(await this.api.operatorUser(this.userId), null);
  }

  /** The amount to fund changed: the next funding is a new one. */
  newFunding() {
    this.fundKey = newIdempotencyKey();
  }

  /** Lifts the account's locks. @param {string} pin @returns {Promise<boolean>} */
  unlock(pin) {
    return this.act(pin, (p) => this.api.operatorUnlock(this.userId, p), 'Account unlocked.');
  }

  /** Moves the user to another limits tier. @param {string} tier @param {string} pin @returns {Promise<boolean>} */
  assignTier(tier, pin) {
    return this.act(pin, (p) => this.api.operatorAssignTier(this.userId, { tier, pin: p }), `Now in tier ${tier}.`);
  }

  /**
   * Revokes one of the user's keys, after `confirm`.
   * @param {string} keyId @param {string} label the key in words @param {string} pin @param {Confirm} confirm
   * @returns {Promise<boolean>} whether it was revoked
   */
  async revokeKey(keyId, label, pin, confirm) {
    checkPin(pin);
    const sure = await confirm({
      message: `Revoke the ${label.charAt(0).toLowerCase() + label.slice(1)}? It will authorize nothing more for ${this.state.user.name}; this cannot be undone.`,
    });
    if (!sure) return false;
    return this.act(pin, (p) => this.api.operatorRevokeKey(this.userId, keyId, p), 'Key revoked.');
  }

  /**
   * Credits the wallet from the funding account, after `confirm`: money moves at once and only a
   * ledger correction takes it back, so the question says what and how much first.
   * @param {{amount: string, currency: string, pin: string}} fields @param {Confirm} confirm
   * @returns {Promise<boolean>} whether it was credited
   */
  async fund(fields, confirm) {
    const minor = parseMoney(fields.amount);
    if (minor === null || minor < 1) throw fieldError('amount', 'Enter the amount to credit, e.g. 1,000.00.');
    checkPin(fields.pin);
    const user = this.state.user;
    const currency = fields.currency || user.currency;
    const credit = money(minor, currency);
    const sure = await confirm({
      confirm: `Credit ${credit}`,
      message: `Credit ${credit} to ${user.name}'s ${currency} wallet (${user.phone ?? ''}) from the funding account? `
        + 'It is theirs to spend at once and is recorded under your name.',
    });
    if (!sure) {
      this.move({ ...this.state, notice: 'Nothing was credited.' });
      return false;
    }
    const funding = await this.call(() => this.api.operatorFund(this.userId, { pin: fields.pin, amount: minor, currency },
      { idempotencyKey: this.fundKey }));
    this.fundKey = newIdempotencyKey();
    this.show(await this.api.operatorUser(this.userId),
      `Funded ${money(funding.amount, funding.currency)}. The wallet holds ${money(funding.balance, funding.currency)}.`);
    return true;
  }

  /**
   * Reverses a completed transfer or funding with a reason, after `confirm` saying what moves.
   * @param {any} t the transaction line @param {{reason: string, pin: string}} fields @param {Confirm} confirm
   * @returns {Promise<boolean>} whether it was reversed
   */
  async reverse(t, fields, confirm) {
    const reason = fields.reason.trim();
    if (!reason) throw fieldError('reason', 'Say why you reverse it: the reason is recorded with the reversal.');
    checkPin(fields.pin);
    const isFunding = t.type === 'funding';
    const sure = await confirm({
      message: isFunding
        ? `Take the ${money(t.amount, t.currency)} funding back from ${this.state.user.name}'s wallet? This cannot be undone.`
        : `Reverse transfer ${t.reference}? The payee gives back what they received and the payer gets it back with the fees. This cannot be undone.`,
    });
    if (!sure) return false;
    const body = { pin: fields.pin, reason };
    await this.call(() => (isFunding ? this.api.operatorReverseFunding(t.transactionId, body)
      : this.api.operatorReverseTransfer(t.reference, body)));
    this.show(await this.api.operatorUser(this.userId), 'Reversed: both sides see it in their history.');
    return true;
  }

  /**
   * Runs one action with the PIN; the user it answers is shown with `done`.
   * @private @param {string} pin @param {(pin: string) => Promise<any>} call @param {string} done
   */
  async act(pin, call, done) {
    checkPin(pin);
    this.show(await this.call(() => call(pin)), done);
    return true;
  }

  /** @private @param {() => Promise<any>} call */
  async call(call) {
    try {
      return await call();
    } catch (error) {
      throw pinError(error);
    }
  }

  /** @private @param {any} user @param {string | null} notice */
  show(user, notice) {
    this.move({ kind: 'shown', user, notice });
  }

  /** @private @param {any} state */
  move(state) {
    this.state = state;
    this.onChange?.(state);
  }
}

/** Refuses what cannot be the operator's PIN. @param {string} pin */
function checkPin(pin) {
  if (!/^[0-9]{4,6}$/.test(pin)) throw fieldError('pin', 'Type your own account PIN (4 to 6 digits): every change asks for it.');
}

/** The operator's PIN locked by wrong ones: when it unlocks, in words. @param {any} error */
function pinError(error) {
  if (error && error.status === 423 && error.retryAfter) {
    return Object.assign(new Error(`Too many wrong PINs: your PIN is locked. Try again ${inDuration(error.retryAfter)}.`),
      { code: error.code, traceId: error.traceId });
  }
  return error;
}
