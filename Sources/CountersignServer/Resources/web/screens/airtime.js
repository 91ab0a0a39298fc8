// @ts-check
/**
 * Airtime, the view: renders the states of `AirtimeFlow` (airtime-model.js, which holds the flow
 * and its error screens) and forwards the user's actions to it. Each state has one function here
 * that draws it; an action refused in place shows its error where the user acted.
 */
import * as ui from '../ui.js';
import { AirtimeFlow, readIntent } from './airtime-model.js';
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
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;

  const flow = new AirtimeFlow(app.api, {
    phone: app.user.phone || '',
    passkeys: {
      supported: () => !!window.PublicKeyCredential,
      platformAvailable: platformAuthenticatorAvailable,
      sign: (options, { signal, label }) => signPayment(options, options.securePaymentConfirmation, { signal, label }),
    },
    onChange: (state) => screens[state.kind](state),
  });

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

  /**
   * Runs one of the flow's actions from `button`; a refusal is shown in `where` (or handled by `refused`).
   * @param {EventTarget | null} button
   * @param {() => Promise<any>} action
   * @param {Element} where
   * @param {(error: any) => void} [refused]
   */
  async function act(button, action, where, refused) {
    try {
      await ui.busy(button, action());
    } catch (error) {
      if (flow.stopped) return;
      if (refused) refused(error);
      else ui.showError(where, error);
    }
  }

  /** @param {any} intent */
  function intentDetails(intent) {
    return ui.details([
      ['Amount', h('span', { id: 'intent-amount' }, ui.money(intent.amount, 'NGN'))],
      ['Network', h('span', { id: 'intent-network' }, networkName(intent.productCode))],
      ['Recipient', h('span', { id: 'intent-recipient' }, intent.recipientPhone)],
      ['Pay from', intent.useCashback ? 'Cashback first, then wallet' : 'Wallet'],
    ]);
  }

  /** @param {{intent: any}} state */
  function showForm({ intent }) {
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
    const pinInstead = ui.button('Pay with PIN instead', (/** @type {Event} */ event) => {
      const read = readForm();
      if (read) act(event.currentTarget, () => flow.payWithPinInstead(read), form, refuseOnForm);
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

    function readForm() {
      ui.showError(form, null);
      const read = readIntent({
        amount: amount.input.value, productCode: /** @type {HTMLSelectElement} */ (network.input).value,
        recipientPhone: recipient.input.value, useCashback: /** @type {HTMLInputElement} */ (cashback).checked,
      });
      if ('error' in read) {
        ui.showError(form, read.error);
        (read.field === 'amount' ? amount : recipient).input.focus();
        return null;
      }
      return read.intent;
    }

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const read = readForm();
      if (read) act(submit, () => flow.continue(read), form, refuseOnForm);
    });
  }

  /** @param {{intent: any, options: any, pinAllowed: boolean}} state */
  function showReview({ intent, options, pinAllowed }) {
    const t = options.transaction;
    const confirm = ui.button('Confirm with passkey', () => {
      ui.showError(stage, null);
      act(confirm, () => flow.confirm(), stage);
    }, { id: 'airtime-confirm' });
    show('Confirm airtime', 'review',
      h('section', { className: 'card intent', 'aria-labelledby': 'review-h' },
        h('h2', { id: 'review-h' }, 'Check the payment'),
        h('p', { id: 'review-words' }, 'Your passkey will sign: ',
          h('strong', null, `${ui.money(t.amount, t.currency || 'NGN')} airtime for ${t.recipientPhone} on ${networkName(t.productCode)}`), '.'),
        intentDetails(intent),
        h('p', { className: 'ok-box', id: 'challenge-ok' },
          '✓ This device checked that the request matches this payment and nothing else.'),
        h('details', { id: 'review-technical' }, h('summary', null, 'Technical details'),
          h('p', { className: 'muted' }, 'The challenge was recomputed on this device as SHA-256 of the server\'s nonce and this intent:'),
          h('p', null, h('code', null, JSON.stringify(t))))),
      confirm,
      pinAllowed
        ? ui.button('Pay with PIN instead', () => flow.usePin(), { kind: 'secondary', id: 'airtime-use-pin' })
        : h('p', { className: 'muted', id: 'pin-not-offered' },
          'Your PIN alone cannot pay this amount now: confirm it with your passkey.'),
      ui.button('Cancel', () => flow.backToForm(), { kind: 'link', id: 'airtime-cancel' }));
  }

  function showProcessing() {
    show('Paying…', 'processing', h('p', { role: 'status' }, 'Checking your signature and paying…'));
  }

  /** @param {{intent: any, reason: string | null, offerPasskey: boolean}} state */
  function showPin({ intent, reason, offerPasskey }) {
    const pin = ui.pinField('Account PIN', { id: 'airtime-pin', autocomplete: 'current-password' });
    const pay = h('button', { type: 'submit', className: 'btn primary', id: 'airtime-pay-pin' }, `Pay ${ui.money(intent.amount, 'NGN')} with PIN`);
    const form = h('form', { className: 'card', id: 'airtime-pin-form', novalidate: true },
      intentDetails(intent), pin, pay);
    show('Pay with PIN', 'pin',
      reason ? h('p', { className: 'notice', role: 'status', id: 'pin-reason' }, reason) : null,
      form,
      offerPasskey ? ui.button('Use a passkey on another device',
        (/** @type {Event} */ event) => act(event.currentTarget, () => flow.tryPasskey(), form),
        { kind: 'secondary', id: 'airtime-other-device' }) : null,
      ui.button('Back', () => flow.backToForm(), { kind: 'link', id: 'airtime-back' }));
    // Focus stays on the new screen's heading (show() sets it), as on every screen.
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      ui.showError(form, null);
      act(pay, () => flow.payWithPin(pin.input.value), form, (error) => {
        if (!error.field) pin.input.value = '';
        ui.showError(form, error);
        pin.input.focus();
      });
    });
  }

  /** The PIN alone may not pay this (over the PIN allowance): only the passkey is offered. @param {{error: any}} state */
  function showPasskeyNeeded({ error }) {
    const retry = ui.button('Confirm with passkey',
      (/** @type {Event} */ event) => act(event.currentTarget, () => flow.tryPasskey(), stage),
      { id: 'airtime-passkey-needed' });
    show('Confirm with your passkey', 'passkey-needed',
      h('div', { className: 'card verdict neutral' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '!'),
        h('p', { id: 'verdict-message' },
          'This payment needs your passkey. Your PIN alone pays only small amounts, and only a few times '
          + 'between passkey payments. Nothing was charged.'),
        error ? ui.errorDetails(error, { codeId: 'verdict-code' }) : null),
      retry,
      ui.link('/keys', 'Add a passkey', { className: 'btn secondary', id: 'airtime-add-passkey' }),
      ui.button('Back', () => flow.backToForm(), { kind: 'link', id: 'airtime-back' }));
  }

  /** @param {any} intent @param {any} d the top-up's `data` */
  function receiptRows(intent, d) {
    /** @type {Array<[string, any]>} */
    const rows = [
      ['Reference', h('code', { id: 'receipt-reference' }, d.transactionId)],
      ['Date and time', h('span', { id: 'receipt-time' }, receiptTime(d.timestamp || Date.now()))],
      ['From', `${app.user.name}'s wallet`],
      ['To', `${intent.recipientPhone} on ${networkName(intent.productCode)}`],
      ['Amount', money(d.amount ?? intent.amount)],
    ];
    return rows;
  }

  const money = (/** @type {number} */ minor) => ui.money(minor, 'NGN');

  /** @param {{intent: any, result: any}} state */
  function showSupplierFailed({ intent, result }) {
    const d = result.data || {};
    // The server's message says what happened and that nothing was charged; it is not repeated.
    show('Airtime not delivered', 'supplier-failed',
      h('div', { className: 'card verdict bad' }, h('p', { className: 'mark', 'aria-hidden': 'true' }, '✕'),
        h('p', { id: 'verdict-message' }, result.message || 'The network did not deliver the airtime. Your wallet was not charged.'),
        h('p', null, 'Balance: ', h('strong', { id: 'verdict-balance' }, money(d.balance)))),
      receipt('Record', [...receiptRows(intent, d), ['Charged', 'Nothing'], ['Status', 'Failed']]),
      ui.button('Try again', () => flow.backToForm(), { id: 'airtime-again' }),
      ui.link('/', 'Back to dashboard', { className: 'btn secondary', id: 'to-dashboard' }));
  }

  /** @param {{intent: any, result: any, by: string}} state */
  function showSuccess({ intent, result, by }) {
    const d = result.data || {};
    show('Airtime sent', 'success',
      h('div', { className: 'card verdict ok' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '✓'),
        h('p', { id: 'verdict-message' }, `${money(d.amount)} ${networkName(intent.productCode)} airtime sent to ${intent.recipientPhone}, authorized by ${by}.`)),
      receipt('Receipt', [
        ...receiptRows(intent, d),
        ['Cashback used', money(d.cashbackUsed || 0)],
        ['Paid from wallet', money((d.amount || 0) - (d.cashbackUsed || 0))],
        ['Cashback earned', h('span', { id: 'verdict-cashback' }, money(d.cashbackEarned || 0))],
        ['New balance', h('span', { id: 'verdict-balance' }, money(d.balance))],
      ]),
      ui.link('/', 'Back to dashboard', { className: 'btn primary', id: 'to-dashboard' }),
      ui.button('Buy more airtime', () => flow.backToForm(), { kind: 'secondary' }));
  }

  /** @param {{wallet: any}} state */
  function showCancelled({ wallet }) {
    show('Payment cancelled', 'cancelled',
      h('div', { className: 'card verdict neutral' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '↩'),
        h('p', { id: 'verdict-message' }, 'You cancelled the confirmation. Nothing was charged.'),
        wallet ? h('p', null, 'Balance: ', h('strong', { id: 'verdict-balance' }, ui.money(wallet.balance, wallet.currency))) : null),
      ui.button('Back to the payment', () => flow.backToForm(), { id: 'airtime-back' }),
      ui.button('Pay with PIN instead', () => flow.usePin(), { kind: 'secondary', id: 'airtime-use-pin' }));
  }

  /** @param {{error: any}} state */
  function showVerifyFailed({ error }) {
    show('Verification failed', 'verify-failed',
      h('div', { className: 'card verdict bad' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '✕'),
        h('p', { id: 'verdict-message' }, 'The server could not verify your device signature, so nothing was charged.'),
        h('p', { className: 'muted' }, ui.describeError(error)), ui.errorDetails(error, { codeId: 'verdict-code' })),
      ui.button('Try again', (/** @type {Event} */ event) => act(event.currentTarget, () => flow.retry(), stage), { id: 'airtime-retry' }),
      ui.button('Pay with PIN instead', () => flow.usePin(), { kind: 'secondary', id: 'airtime-use-pin' }),
      ui.link('/', 'Back to dashboard', { className: 'btn link' }));
  }

  /** @param {{error: any, until: number}} state */
  function showLocked({ error, until }) {
    const left = h('span', { className: 'countdown', id: 'lock-countdown' }, ui.clock((until - Date.now()) / 1000));
    show('Payments locked', 'locked',
      h('div', { className: 'card verdict bad' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '!'),
        h('p', { id: 'verdict-message' }, 'Too many failed payment authorizations. Payments are locked for your safety.'),
        h('p', null, 'They unlock at ', h('strong', { id: 'unlock-at' }, new Date(until).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })),
          ' (in ', left, ').'),
        h('p', { className: 'muted' }, h('code', null, error.code))),
      ui.link('/', 'Back to dashboard', { className: 'btn primary' }));
    timer = setInterval(() => {
      const s = (until - Date.now()) / 1000;
      left.textContent = ui.clock(s);
      if (s <= 0 && timer) {
        clearInterval(timer);
        timer = null;
        flow.backToForm();
      }
    }, 1000);
  }

  /** @param {{error: any}} state */
  function showRefused({ error }) {
    show('Payment refused', 'refused',
      h('div', { className: 'card verdict bad' },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, '!'),
        h('p', { id: 'verdict-message' }, 'The server asked this device to sign something other than this payment. Nothing was signed or charged.'),
        h('p', { className: 'muted' }, ui.describeError(error)), ui.errorDetails(error)),
      ui.button('Back', () => flow.backToForm(), { id: 'airtime-back' }));
  }

  /** @param {{error: any}} state */
  function showProblem({ error }) {
    show('Payment not completed', 'problem',
      h('div', { className: 'card' }),
      ui.button('Back to the payment', () => flow.backToForm(), { id: 'airtime-back' }),
      ui.link('/', 'Back to dashboard', { className: 'btn link' }));
    ui.showError(/** @type {HTMLElement} */ (stage.firstElementChild), error);
  }

  /** @type {Record<string, (state: any) => void>} */
  const screens = {
    form: showForm, review: showReview, processing: showProcessing, pin: showPin, passkeyNeeded: showPasskeyNeeded,
    success: showSuccess, supplierFailed: showSupplierFailed, cancelled: showCancelled, verifyFailed: showVerifyFailed,
    locked: showLocked, refused: showRefused, problem: showProblem,
  };

  secureConfirmation(); // start loading, so the confirming click need not wait for it
  showForm(flow.state);
  return () => {
    if (timer) clearInterval(timer);
    flow.stop();
  };
}

export const routes = [{ path: '/airtime', title: 'Buy airtime', auth: true, render: renderAirtime }];
