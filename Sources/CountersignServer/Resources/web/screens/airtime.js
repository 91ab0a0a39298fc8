// @ts-check
/**
 * Airtime (the biometric transaction flow): the intent → options bound to it → the page recomputes
 * the challenge → navigator.credentials.get → verify → top-up. PIN fallback. Each of the seed's
 * error flows has a screen: biometric not available → PIN; user cancelled → back, nothing charged;
 * verification failed (401) → message and retry; locked (423) → when it unlocks.
 */
import { CountersignError, newIdempotencyKey } from '../countersign.js';
import * as ui from '../ui.js';
import { platformAuthenticatorAvailable } from './lock.js';
import { NETWORKS, networkName, receipt, receiptTime } from './receipt.js';
import { secureConfirmation, signPayment } from './sign.js';

const { h } = ui;

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderAirtime(view, _params, _query, app) {
  const stage = h('div', { id: 'airtime-stage' });
  view.append(stage);
  let alive = true;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  /** @type {AbortController | null} */
  let gesture = null;
  /**
   * What the server's options said of the PIN for the current intent: false once it said the PIN
   * alone may not pay it (over the PIN allowance), so only the passkey is offered.
   */
  let pinAllowed = true;

  /** @type {{amount: number, productCode: string, recipientPhone: string, useCashback: boolean}} */
  let intent = { amount: 0, productCode: 'AIRTIME_MTN', recipientPhone: app.user.phone || '', useCashback: false };

  /**
   * @param {string} title
   * @param {string} name the stage's name (data-stage, for tests and styling)
   * @param {...any} children
   */
  function show(title, name, ...children) {
    if (timer) clearInterval(timer);
    timer = null;
    view.replaceChildren();
    stage.replaceChildren(...children.flat().filter(Boolean));
    stage.dataset.stage = name;
    view.append(stage);
    ui.setTitle(view, title);
  }

  function intentDetails() {
    return ui.details([
      ['Amount', h('span', { id: 'intent-amount' }, ui.money(intent.amount, 'NGN'))],
      ['Network', h('span', { id: 'intent-network' }, networkName(intent.productCode))],
      ['Recipient', h('span', { id: 'intent-recipient' }, intent.recipientPhone)],
      ['Pay from', intent.useCashback ? 'Cashback first, then wallet' : 'Wallet'],
    ]);
  }

  // --- 1. the form ------------------------------------------------------------------------------
  function showForm() {
    const amount = ui.field('Amount (₦)', {
      id: 'airtime-amount', inputMode: 'decimal', required: true, autocomplete: 'off',
      value: intent.amount ? String(intent.amount / 100) : '', placeholder: '500', hint: '₦1 to ₦500,000',
    });
    const network = ui.field('Network', { id: 'airtime-network', tag: 'select', options: NETWORKS.map((n) => [n.productCode, n.name]), value: intent.productCode });
    const recipient = ui.field('Recipient phone number', {
      id: 'airtime-recipient', type: 'tel', inputMode: 'tel', autocomplete: 'tel', required: true, value: intent.recipientPhone,
    });
    const cashback = h('input', { type: 'checkbox', id: 'airtime-cashback', checked: intent.useCashback });
    const submit = h('button', { type: 'submit', className: 'btn primary', id: 'airtime-continue' }, 'Continue');
    const pinInstead = ui.button('Pay with PIN instead', async () => {
      if (!read()) return;
      try {
        await ensureAffordable();
        await askPinAllowed();
        showPin(null);
      } catch (error) {
        if (alive) refuseOnForm(error);
      }
    }, { kind: 'link', id: 'airtime-use-pin' });
    const form = h('form', { className: 'card', id: 'airtime-form', novalidate: true },
      amount, network, recipient,
      h('div', { className: 'check' }, cashback, h('label', { for: 'airtime-cashback' }, 'Use my cashback first')),
      submit, pinInstead);
    show('Buy airtime', 'form', form);

    /**
     * Refused before the passkey or the PIN is asked (the balance, above all): said on the form.
     * @param {any} error
     */
    function refuseOnForm(error) {
      ui.showError(form, error);
      if (error.code === 'insufficient_funds') amount.input.focus();
    }

    function read() {
      ui.showError(form, null);
      const minor = ui.parseMoney(amount.input.value);
      if (minor === null || minor < 100 || minor > 50000000) {
        ui.showError(form, 'Enter an amount between ₦1 and ₦500,000 (at most two decimals).');
        amount.input.focus();
        return false;
      }
      const phone = recipient.input.value.trim();
      if (!phone) {
        ui.showError(form, 'Enter the phone number to top up.');
        recipient.input.focus();
        return false;
      }
      intent = {
        amount: minor, productCode: /** @type {HTMLSelectElement} */ (network.input).value,
        recipientPhone: phone, useCashback: /** @type {HTMLInputElement} */ (cashback).checked,
      };
      return true;
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!read()) return;
      try {
        await ui.busy(submit, prepare());
      } catch (error) {
        if (alive) refuseOnForm(error);
      }
    });
  }

  /**
   * Refuses, before any gesture, a top-up the wallet (and the cashback, when chosen) cannot pay:
   * the PIN path has no options call to refuse it. The server checks again when it debits.
   */
  async function ensureAffordable() {
    const wallet = await app.api.wallet();
    const available = wallet.balance + (intent.useCashback ? wallet.cashback : 0);
    if (available < intent.amount) {
      throw Object.assign(new Error(`Your balance (${ui.money(available, wallet.currency)}) is too low for this top-up. `
        + 'Lower the amount, or add money first. Nothing was charged.'), { code: 'insufficient_funds' });
    }
  }

  /**
   * Asks the server, before the PIN is typed, whether the PIN alone may pay this intent: the options
   * say so (`pinAllowed`); with no passkey the options are refused, and the refusal says it.
   */
  async function askPinAllowed() {
    try {
      const options = await app.api.airtimeOptions(bare());
      pinAllowed = options.pinAllowed !== false;
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e.code === 'no_registered_credential') pinAllowed = true;
      else if (e.code === 'strong_authentication_required') pinAllowed = false;
      else throw error;
    }
  }

  /** The intent without useCashback: what the options and the challenge cover. */
  function bare() {
    const { useCashback, ...rest } = intent;
    return rest;
  }

  // --- 2. options, challenge check --------------------------------------------------------------
  /** @param {{anyAuthenticator?: boolean}} opts try a passkey even without a platform authenticator */
  async function prepare({ anyAuthenticator = false } = {}) {
    await ensureAffordable();
    pinAllowed = true;
    if (!window.PublicKeyCredential) {
      await askPinAllowed();
      showPin('This browser cannot use passkeys. Pay with your PIN instead.');
      return;
    }
    if (!anyAuthenticator && !(await platformAuthenticatorAvailable())) {
      await askPinAllowed();
      showPin('Biometric authentication is not available on this device. Pay with your PIN instead.', true);
      return;
    }
    /** @type {any} */
    let options;
    try {
      options = await app.api.airtimeOptions(bare());
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e.status === 422 && e.code === 'no_registered_credential') {
        showPin('You have no device key yet, so pay with your PIN (or add a passkey under Keys).');
        return;
      }
      if (e.status === 423) return showLocked(e);
      if (e.code === 'strong_authentication_required') return showPasskeyNeeded(e);
      throw error;
    }
    if (!alive) return;
    pinAllowed = options.pinAllowed !== false;
    try {
      await app.api.checkAirtimeOptions(options, bare());
    } catch (error) {
      return showRefused(error);
    }
    showReview(options);
  }

  /** @param {any} options */
  function showReview(options) {
    const t = options.transaction;
    const confirm = ui.button('Confirm with passkey', () => sign(options, confirm), { id: 'airtime-confirm' });
    show('Confirm airtime', 'review',
      h('section', { className: 'card intent', 'aria-labelledby': 'review-h' },
        h('h2', { id: 'review-h' }, 'Check the payment'),
        h('p', { id: 'review-words' }, 'Your passkey will sign: ',
          h('strong', null, `${ui.money(t.amount, t.currency || 'NGN')} airtime for ${t.recipientPhone} on ${networkName(t.productCode)}`), '.'),
        intentDetails(),
        h('p', { className: 'ok-box', id: 'challenge-ok' },
          '✓ This device checked that the request matches this payment and nothing else.'),
        h('details', { id: 'review-technical' }, h('summary', null, 'Technical details'),
          h('p', { className: 'muted' }, 'The challenge was recomputed on this device as SHA-256 of the server\'s nonce and this intent:'),
          h('p', null, h('code', null, JSON.stringify(t))))),
      confirm,
      pinAllowed
        ? ui.button('Pay with PIN instead', () => showPin(null), { kind: 'secondary', id: 'airtime-use-pin' })
        : h('p', { className: 'muted', id: 'pin-not-offered' },
          'Your PIN alone cannot pay this amount now: confirm it with your passkey.'),
      ui.button('Cancel', () => showForm(), { kind: 'link', id: 'airtime-cancel' }));
  }

  /**
   * @param {any} options
   * @param {HTMLElement} confirm
   */
  async function sign(options, confirm) {
    ui.showError(stage, null);
    const idempotencyKey = newIdempotencyKey();
    gesture = new AbortController();
    /** @type {any} */
    let assertion;
    let via = 'webauthn';
    try {
      const signed = await ui.busy(confirm, signPayment(options, options.securePaymentConfirmation,
        { signal: gesture.signal, label: `${networkName(intent.productCode)} airtime` }));
      assertion = signed.assertion;
      via = signed.via;
    } catch (error) {
      if (!alive) return;
      const e = /** @type {any} */ (error);
      if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return showCancelled();
      if (e && (e.name === 'NotSupportedError' || e.name === 'SecurityError')) {
        return showPin('Biometric authentication is not available here. Pay with your PIN instead.');
      }
      ui.showError(stage, error);
      return;
    }
    show('Paying…', 'processing', h('p', { role: 'status' }, 'Checking your signature and paying…'));
    try {
      const verified = await app.api.verifyAssertion(assertion);
      const result = await app.api.topUp({ ...intent, verificationToken: verified.verificationToken }, { idempotencyKey });
      showReceipt(result, via === 'spc' ? 'passkey (Secure Payment Confirmation)' : 'passkey');
    } catch (error) {
      if (!alive) return;
      const e = /** @type {any} */ (error);
      if (e.status === 423) return showLocked(e);
      if (e.status === 401 || e.status === 403) return showVerifyFailed(e);
      showProblem(e);
    }
  }

  // --- PIN fallback -------------------------------------------------------------------------------
  /**
   * @param {string | null} reason
   * @param {boolean} [offerPasskey] offer a passkey on another device (a phone, a security key)
   */
  function showPin(reason, offerPasskey = false) {
    if (!pinAllowed) return showPasskeyNeeded(null);
    const pin = ui.pinField('Account PIN', { id: 'airtime-pin', autocomplete: 'current-password' });
    const pay = h('button', { type: 'submit', className: 'btn primary', id: 'airtime-pay-pin' }, `Pay ${ui.money(intent.amount, 'NGN')} with PIN`);
    const form = h('form', { className: 'card', id: 'airtime-pin-form', novalidate: true },
      intentDetails(), pin, pay);
    show('Pay with PIN', 'pin',
      reason ? h('p', { className: 'notice', role: 'status', id: 'pin-reason' }, reason) : null,
      form,
      offerPasskey ? ui.button('Use a passkey on another device', async (event) => {
        try {
          await ui.busy(/** @type {HTMLElement} */ (event.currentTarget), prepare({ anyAuthenticator: true }));
        } catch (error) {
          if (alive) ui.showError(form, error);
        }
      }, { kind: 'secondary', id: 'airtime-other-device' }) : null,
      ui.button('Back', () => showForm(), { kind: 'link', id: 'airtime-back' }));
    // Focus stays on the new screen's heading (show() sets it), as on every screen.
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      ui.showError(form, null);
      if (!/^[0-9]{4,6}$/.test(pin.input.value)) {
        ui.showError(form, 'Enter your 4 to 6 digit PIN.');
        pin.input.focus();
        return;
      }
      try {
        const result = await ui.busy(pay, app.api.buyAirtimeWithPin(intent, pin.input.value, { idempotencyKey: newIdempotencyKey() }));
        showReceipt(result, 'PIN');
      } catch (error) {
        if (!alive) return;
        const e = /** @type {any} */ (error);
        if (e.status === 423) return showLocked(e);
        if (e.code === 'strong_authentication_required') {
          pinAllowed = false;
          return showPasskeyNeeded(e);
        }
        pin.input.value = '';
        ui.showError(form, e.code === 'authorization_failed'
          ? Object.assign(new Error('Payment authorization failed. Check your PIN and try again.'), { code: e.code, traceId: e.traceId })
          : error);
        pin.input.focus();
      }
    });
  }

  /**
   * The PIN alone may not pay this (over the PIN allowance): only the passkey is offered.
   * @param {any} error the server's refusal, if it came as one
   */
  function showPasskeyNeeded(error) {
    const retry = ui.button('Confirm with passkey', async (event) => {
      try {
        await ui.busy(/** @type {HTMLElement} */ (event.currentTarget), prepare({ anyAuthenticator: true }));
      } catch (err) {
        if (alive) ui.showError(stage, err);
      }
    }, { id: 'airtime-passkey-needed' });
    show('Confirm with your passkey', 'passkey-needed',
      h('div', { className: 'card verdict neutral' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '!'),
        h('p', { id: 'verdict-message' },
          'This payment needs your passkey. Your PIN alone pays only small amounts, and only a few times '
          + 'between passkey payments. Nothing was charged.'),
        error ? ui.errorDetails(error, { codeId: 'verdict-code' }) : null),
      retry,
      ui.link('/keys', 'Add a passkey', { className: 'btn secondary', id: 'airtime-add-passkey' }),
      ui.button('Back', () => showForm(), { kind: 'link', id: 'airtime-back' }));
  }

  // --- outcomes -----------------------------------------------------------------------------------
  /** @param {any} result @param {string} by */
  function showReceipt(result, by) {
    const d = result.data || {};
    const money = (/** @type {number} */ minor) => ui.money(minor, 'NGN');
    /** @type {Array<[string, any]>} */
    const rows = [
      ['Reference', h('code', { id: 'receipt-reference' }, d.transactionId)],
      ['Date and time', h('span', { id: 'receipt-time' }, receiptTime(d.timestamp || Date.now()))],
      ['From', `${app.user.name}'s wallet`],
      ['To', `${intent.recipientPhone} on ${networkName(intent.productCode)}`],
      ['Amount', money(d.amount ?? intent.amount)],
    ];
    if (!result.success) {
      // The server's message says what happened and that nothing was charged; it is not repeated.
      show('Airtime not delivered', 'supplier-failed',
        h('div', { className: 'card verdict bad' }, h('p', { className: 'mark', 'aria-hidden': 'true' }, '✕'),
          h('p', { id: 'verdict-message' }, result.message || 'The network did not deliver the airtime. Your wallet was not charged.'),
          h('p', null, 'Balance: ', h('strong', { id: 'verdict-balance' }, money(d.balance)))),
        receipt('Record', [...rows, ['Charged', 'Nothing'], ['Status', 'Failed']]),
        ui.button('Try again', () => showForm(), { id: 'airtime-again' }),
        ui.link('/', 'Back to dashboard', { className: 'btn secondary', id: 'to-dashboard' }));
      return;
    }
    show('Airtime sent', 'success',
      h('div', { className: 'card verdict ok' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '✓'),
        h('p', { id: 'verdict-message' }, `${money(d.amount)} ${networkName(intent.productCode)} airtime sent to ${intent.recipientPhone}, authorized by ${by}.`)),
      receipt('Receipt', [
        ...rows,
        ['Cashback used', money(d.cashbackUsed || 0)],
        ['Paid from wallet', money((d.amount || 0) - (d.cashbackUsed || 0))],
        ['Cashback earned', h('span', { id: 'verdict-cashback' }, money(d.cashbackEarned || 0))],
        ['New balance', h('span', { id: 'verdict-balance' }, money(d.balance))],
      ]),
      ui.link('/', 'Back to dashboard', { className: 'btn primary', id: 'to-dashboard' }),
      ui.button('Buy more airtime', () => showForm(), { kind: 'secondary' }));
  }

  async function showCancelled() {
    /** @type {any} */
    let wallet = null;
    try {
      wallet = await app.api.wallet();
    } catch {
      // The balance line is a courtesy; the screen stands without it.
    }
    if (!alive) return;
    show('Payment cancelled', 'cancelled',
      h('div', { className: 'card verdict neutral' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '↩'),
        h('p', { id: 'verdict-message' }, 'You cancelled the confirmation. Nothing was charged.'),
        wallet ? h('p', null, 'Balance: ', h('strong', { id: 'verdict-balance' }, ui.money(wallet.balance, wallet.currency))) : null),
      ui.button('Back to the payment', () => showForm(), { id: 'airtime-back' }),
      ui.button('Pay with PIN instead', () => showPin(null), { kind: 'secondary', id: 'airtime-use-pin' }));
  }

  /** @param {any} error */
  function showVerifyFailed(error) {
    show('Verification failed', 'verify-failed',
      h('div', { className: 'card verdict bad' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '✕'),
        h('p', { id: 'verdict-message' }, 'The server could not verify your device signature, so nothing was charged.'),
        h('p', { className: 'muted' }, ui.describeError(error)), ui.errorDetails(error, { codeId: 'verdict-code' })),
      ui.button('Try again', async (event) => {
        try {
          await ui.busy(/** @type {HTMLElement} */ (event.currentTarget), prepare());
        } catch (err) {
          if (alive) ui.showError(stage, err);
        }
      }, { id: 'airtime-retry' }),
      ui.button('Pay with PIN instead', () => showPin(null), { kind: 'secondary', id: 'airtime-use-pin' }),
      ui.link('/', 'Back to dashboard', { className: 'btn link' }));
  }

  /** @param {any} error */
  function showLocked(error) {
    const seconds = error.retryAfter || 900;
    const until = new Date(Date.now() + seconds * 1000);
    const left = h('span', { className: 'countdown', id: 'lock-countdown' }, ui.clock(seconds));
    show('Payments locked', 'locked',
      h('div', { className: 'card verdict bad' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '!'),
        h('p', { id: 'verdict-message' }, 'Too many failed payment authorizations. Payments are locked for your safety.'),
        h('p', null, 'They unlock at ', h('strong', { id: 'unlock-at' }, until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })),
          ' (in ', left, ').'),
        h('p', { className: 'muted' }, h('code', null, error.code))),
      ui.link('/', 'Back to dashboard', { className: 'btn primary' }));
    timer = setInterval(() => {
      const s = (until.getTime() - Date.now()) / 1000;
      left.textContent = ui.clock(s);
      if (s <= 0 && timer) {
        clearInterval(timer);
        timer = null;
        showForm();
      }
    }, 1000);
  }

  /** @param {any} error */
  function showRefused(error) {
    show('Payment refused', 'refused',
      h('div', { className: 'card verdict bad' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '!'),
        h('p', { id: 'verdict-message' }, 'The server asked this device to sign something other than this payment. Nothing was signed or charged.'),
        h('p', { className: 'muted' }, ui.describeError(error)), ui.errorDetails(error)),
      ui.button('Back', () => showForm(), { id: 'airtime-back' }));
  }

  /** @param {any} error */
  function showProblem(error) {
    show('Payment not completed', 'problem',
      h('div', { className: 'card' }),
      ui.button('Back to the payment', () => showForm(), { id: 'airtime-back' }),
      ui.link('/', 'Back to dashboard', { className: 'btn link' }));
    ui.showError(/** @type {HTMLElement} */ (stage.firstElementChild), error instanceof CountersignError && error.code === 'insufficient_funds'
      ? Object.assign(new Error('Your wallet balance is too low for this top-up. Nothing was charged.'), { code: error.code, traceId: error.traceId })
      : error);
  }

  secureConfirmation(); // start loading, so the confirming click need not wait for it
  showForm();
  return () => {
    alive = false;
    if (timer) clearInterval(timer);
    gesture?.abort();
  };
}

export const routes = [{ path: '/airtime', title: 'Buy airtime', auth: true, render: renderAirtime }];
