// @ts-check
/**
 * The dashboard without its DOM (the view is home.js): the wallets' balances and the history
 * (paged), read again whenever the view asks (on focus, on becoming visible, every 15 seconds while
 * visible: the view owns those browser events and its timer). The view renders `state` on every
 * change and forwards the user's actions.
 *
 * States (`state.kind`):
 *   loading, failed {error} (the first read failed),
 *   shown {wallet, transactions, cursor, updatedAt, error} (`cursor`: more history to read;
 *   `error`: the last refresh failed, what is shown is from the one before).
 * `more` refused rejects and leaves the state as it was: the view says so under the history.
 */

/** The history's page. */
export const PAGE = 10;

export class HomeModel {
  /**
   * @param {any} api the Countersign client: wallet, transactions
   * @param {{onChange?: (state: any) => void, now?: () => Date}} options
   */
  constructor(api, { onChange, now = () => new Date() }) {
    this.api = api;
    this.onChange = onChange;
    this.now = now;
    this.stopped = false;
    /** @type {any} */
    this.state = { kind: 'loading' };
  }

  /** The screen is gone: nothing more is drawn. */
  stop() {
    this.stopped = true;
  }

  /**
   * Reads the balances and as much history as is shown (a page at least, at most 100 lines); a
   * failure keeps what is shown, with the error.
   */
  async refresh() {
    const loaded = this.state.kind === 'shown' ? this.state.transactions.length : 0;
    try {
      const [wallet, page] = await Promise.all([
        this.api.wallet(),
        this.api.transactions({ limit: Math.max(PAGE, Math.min(100, loaded)) }),
      ]);
      this.move({
        kind: 'shown', wallet, transactions: page.transactions, cursor: page.nextCursor || null, updatedAt: this.now(), error: null,
      });
    } catch (error) {
      this.move(this.state.kind === 'shown' ? { ...this.state, error } : { kind: 'failed', error });
    }
  }

  /** The next page of history, after what is shown. */
  async more() {
    const state = this.state;
    if (state.kind !== 'shown' || !state.cursor) return;
    const page = await this.api.transactions({ limit: PAGE, cursor: state.cursor });
    this.move({ ...this.state, transactions: [...this.state.transactions, ...page.transactions], cursor: page.nextCursor || null });
  }

  /** @private @param {any} state */
  move(state) {
    if (this.stopped) return;
    this.state = state;
    this.onChange?.(state);
  }
}
