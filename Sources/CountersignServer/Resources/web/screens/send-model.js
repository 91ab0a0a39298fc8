// @ts-check
/**
 * A transfer after it is created, without its DOM (the view is send.js): its live document (the
 * stream, or polls when the stream stops), the quote to accept (the passkey signs its challenge) or
 * decline, and the verdict. The view renders `state` on every change and forwards the user's
 * actions to the methods below.
 *
 * States (`state.kind`), each with the transfer's `doc`:
 *   preparing (the payee looked up, the fees quoted), quote (AUTHORIZATION_REQUIRED with its quote),
 *   sending (AUTHORIZED), verdict {localAuthFailed, signedVia} (a final status).
 * Each state may carry `error`: an action that failed, shown once on the next state drawn.
 */
import { FINAL_TRANSFER_STATUSES } from '../countersign.js';

/**
 * What the model needs to sign a quote: the request options and the browser's Secure Payment
 * Confirmation data (if any) → the assertion and how it was made.
 * @typedef {(request: any, spcData: any, opts: {signal: AbortSignal, label: string}) => Promise<{assertion: any, via: string}>} Sign
 */

/** How often the document is asked for when the live stream has stopped. */
const POLL_INTERVAL = 3000;

/** @param {any} doc */
const isFinal = (doc) => FINAL_TRANSFER_STATUSES.includes(doc.status);

export class TransferWatch {
  /**
   * @param {any} api the Countersign client: getTransfer, watchTransfer, signTransfer, cancelTransfer, declineTransfer
   * @param {string} id the transfer
   * @param {{sign: Sign, onChange?: (state: any) => void, pollInterval?: number}} options
   */
  constructor(api, id, { sign, onChange, pollInterval = POLL_INTERVAL }) {
    this.api = api;
    this.id = id;
    this.sign = sign;
    this.onChange = onChange;
    this.pollInterval = pollInterval;
    /** @type {any} */
    this.doc = null;
    /** @type {any} */
    this.state = null;
    /** The version drawn last (status and sequence): the same version is not drawn twice. */
    this.shownKey = /** @type {string | null} */ (null);
    /** An action's error, shown with the next state drawn. */
    this.error = /** @type {any} */ (null);
    this.busy = false;
    this.localAuthFailed = false;
    /** @type {string | null} */
    this.signedVia = null;
    /** @type {AbortController | null} */
    this.gesture = null;
    /** @type {(() => void) | null} */
    this.closeWatch = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.poller = null;
    this.stopped = false;
  }

  /** Reads the document, then follows it live until it is final. */
  async start() {
    this.update(await this.api.getTransfer(this.id));
    if (this.stopped || isFinal(this.doc)) return;
    this.closeWatch = this.api.watchTransfer(this.id, (/** @type {any} */ doc) => this.update(doc), {
      onError: () => {
        if (!this.stopped && this.doc && !isFinal(this.doc)) this.startPolling();
      },
    });
  }

  /** The screen is gone: no stream, no polls, a passkey prompt withdrawn. */
  stop() {
    this.stopped = true;
    this.closeStream();
    this.gesture?.abort();
  }

  /**
   * A newer version of the document (an older one, or the one shown, changes nothing).
   * @param {any} next @param {{redraw?: boolean}} opts redraw even the version shown (to show an error)
   */
  update(next, { redraw = false } = {}) {
    if (this.stopped || !next) return;
    if (this.doc && next.sequence < this.doc.sequence) return;
    this.doc = next;
    const key = `${next.status}:${next.sequence}`;
    if (key === this.shownKey && !redraw) return;
    this.shownKey = key;
    if (isFinal(next)) this.closeStream();
    this.draw();
  }

  /** Shows the state the document is in, with the pending error. */
  draw() {
    const doc = this.doc;
    /** @type {any} */
    let state;
    if (isFinal(doc)) state = { kind: 'verdict', doc, localAuthFailed: this.localAuthFailed, signedVia: this.signedVia };
    else if (doc.status === 'AUTHORIZATION_REQUIRED' && doc.quote) state = { kind: 'quote', doc };
    else if (doc.status === 'AUTHORIZED') state = { kind: 'sending', doc };
    else state = { kind: 'preparing', doc };
    if (this.error) state.error = this.error;
    this.error = null;
    this.state = state;
    this.onChange?.(state);
  }

  /**
   * Accept: the passkey signs the quote's challenge (checked first by the client). A declined
   * gesture cancels the transfer: the passkey is the local authentication, and it did not pass.
   * Any other failure is shown with the document as the server has it now.
   */
  async accept() {
    if (this.busy) return;
    this.busy = true;
    this.gesture = new AbortController();
    const signal = this.gesture.signal;
    const spcData = this.doc.challenge?.securePaymentConfirmation;
    try {
      const next = await this.api.signTransfer(this.doc, {
        signal,
        sign: async (/** @type {any} */ request) => {
          const signed = await this.sign(request, spcData, { signal, label: 'Transfer' });
          this.signedVia = signed.via;
          return signed.assertion;
        },
      });
      this.update(next);
    } catch (error) {
      if (this.stopped) return;
      const e = /** @type {any} */ (error);
      if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) {
        this.localAuthFailed = true;
        try {
          this.update(await this.api.cancelTransfer(this.id), { redraw: true });
        } catch (cancelError) {
          this.error = cancelError;
          this.draw();
        }
      } else {
        this.error = error;
        try {
          this.update(await this.api.getTransfer(this.id), { redraw: true });
        } catch {
          // The stream will bring the document; the error shows with the one on screen.
        }
        if (this.error) this.draw();
      }
    } finally {
      this.busy = false;
    }
  }

  /** Decline the fees: the transfer ends, nothing sent. A refusal rejects, the quote kept. */
  async decline() {
    if (this.busy) return;
    this.busy = true;
    try {
      this.update(await this.api.declineTransfer(this.id));
    } finally {
      this.busy = false;
    }
  }

  /** @private */
  startPolling() {
    if (this.poller || this.stopped) return;
    this.poller = setInterval(async () => {
      try {
        this.update(await this.api.getTransfer(this.id));
      } catch {
        // Keep trying; the screen still shows the last document.
      }
    }, this.pollInterval);
  }

  /** @private */
  closeStream() {
    this.closeWatch?.();
    this.closeWatch = null;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }
}
