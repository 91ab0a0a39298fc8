// @ts-check
/**
 * Send money: create a transfer, watch its live document (a status timeline), show the
 * quote with its fee breakdown and an expiry countdown, accept (the passkey gesture is the local
 * authentication and signs the quote's challenge) or decline, then the verdict and back to the
 * dashboard. The transfer's states and actions are `TransferWatch`'s (send-model.js); this file
 * draws them.
 */
import { FINAL_TRANSFER_STATUSES, newIdempotencyKey } from '../countersign.js';
import * as ui from '../ui.js';
import { receipt, receiptTime } from './receipt.js';
import { TransferWatch } from './send-model.js';
import { secureConfirmation, signPayment } from './sign.js';

const { h } = ui;

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} query
 * @param {any} app
 */
function renderNew(view, _params, query, app) {
  ui.setTitle(view, 'Send money');
  const payee = ui.field('Payee phone number', {
    id: 'send-phone', type: 'tel', inputMode: 'tel', autocomplete: 'tel', required: true,
    value: query.get('payee') || '', placeholder: '080 1234 5678',
  });
  const amount = ui.field('Amount the payee receives (₦)', {
    id: 'send-amount', inputMode: 'decimal', required: true, autocomplete: 'off', value: query.get('amount') || '',
    hint: 'Fees are quoted before you approve and come on top.',
  });
  const note = ui.field('Note (optional)', { id: 'send-note', maxLength: 140, value: query.get('note') || '' });
  const submit = h('button', { type: 'submit', className: 'btn primary', id: 'send-submit' }, 'Get the fee quote');
  const form = h('form', { className: 'card', id: 'send-form', novalidate: true }, payee, amount, note, submit);
  view.append(form);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    const phone = payee.input.value.trim();
    const minor = ui.parseMoney(amount.input.value);
    if (!phone) {
      ui.showError(form, 'Enter the payee\'s phone number.');
      payee.input.focus();
      return;
    }
    if (minor === null || minor < 1) {
      ui.showError(form, 'Enter an amount in naira, at most two decimals.');
      amount.input.focus();
      return;
    }
    /** @type {any} */
    const body = { payeePhone: phone, amount: minor, currency: 'NGN' };
    if (note.input.value.trim()) body.note = note.input.value.trim();
    try {
      const doc = await ui.busy(submit, app.api.createTransfer(body, { idempotencyKey: newIdempotencyKey() }));
      app.navigate(`/send/${encodeURIComponent(doc.id)}`);
    } catch (error) {
      const e = /** @type {any} */ (error);
      const box = ui.showError(form, error);
      if (box && e.code === 'no_registered_credential') {
        box.append(h('p', null, ui.link('/keys?next=/send', 'Add a passkey first')));
      }
      // Refused before any quote: the field that needs changing gets the focus.
      (['invalid_amount', 'insufficient_funds'].includes(e.code) ? amount.input : payee.input).focus();
    }
  });
}

const STEPS = ['Payee', 'Quote', 'Approval', 'Sending', 'Result'];
const ORDER = ['PENDING_PAYEE_LOOKUP', 'PENDING_QUOTE', 'AUTHORIZATION_REQUIRED', 'AUTHORIZED'];

/**
 * The step a transfer got to: for a final status other than SUCCESS, the step where it stopped.
 * @param {any} doc
 * @returns {{at: number, stoppedAt: number | null}}
 */
function progress(doc) {
  if (doc.status === 'SUCCESS') return { at: 4, stoppedAt: null };
  if (!FINAL_TRANSFER_STATUSES.includes(doc.status)) return { at: ORDER.indexOf(doc.status), stoppedAt: null };
  const code = doc.error?.code;
  if (code === 'insufficient_funds') return { at: 3, stoppedAt: 3 };
  if (doc.quote) return { at: 2, stoppedAt: 2 };
  if (code === 'payee_not_found') return { at: 0, stoppedAt: 0 };
  return { at: 1, stoppedAt: 1 };
}

/** @param {any} doc */
function timeline(doc) {
  const final = FINAL_TRANSFER_STATUSES.includes(doc.status);
  const { at, stoppedAt } = progress(doc);
  return h('ol', { className: 'timeline', id: 'timeline', 'aria-label': 'Progress' },
    STEPS.map((label, i) => {
      let cls = '';
      let text = label;
      if (stoppedAt !== null) {
        cls = i < stoppedAt ? 'done' : i === stoppedAt || i === 4 ? 'bad' : '';
        if (i === 4) text = doc.status.charAt(0) + doc.status.slice(1).toLowerCase();
      } else if (final) {
        cls = 'done';
        if (i === 4) text = 'Sent';
      } else {
        cls = i < at ? 'done' : i === at ? 'current' : '';
      }
      const current = final ? i === 4 : i === at;
      return h('li', { className: cls, 'aria-current': current ? 'step' : null }, text);
    }));
}

/** @param {any} quote @param {any} doc */
function quoteDetails(quote, doc) {
  return h('dl', { className: 'details', id: 'quote' },
    h('dt', null, 'To'), h('dd', { id: 'quote-payee' }, doc.payeeName || quote.payeePhone,
      doc.payeeName ? h('span', { className: 'sub' }, quote.payeePhone) : null),
    h('dt', null, 'Amount'), h('dd', { id: 'quote-amount' }, ui.money(quote.amount, quote.currency)),
    quote.fees.map((/** @type {any} */ fee) => [h('dt', null, fee.name), h('dd', { className: 'fee' }, ui.money(fee.amount, quote.currency))]),
    h('dt', null, 'Total fees'), h('dd', { id: 'quote-fees' }, ui.money(quote.totalFees, quote.currency)),
    h('dt', { className: 'total' }, 'You pay'), h('dd', { className: 'total', id: 'quote-total' }, ui.money(quote.total, quote.currency)));
}

/**
 * The receipt of a finished transfer: the reference, when, both parties and every amount.
 * @param {any} doc
 * @param {string} me
 */
function transferReceipt(doc, me) {
  const q = doc.quote;
  const money = (/** @type {number} */ minor) => ui.money(minor, doc.currency);
  return receipt('Receipt', [
    ['Reference', h('code', { id: 'receipt-reference' }, doc.id)],
    ['Date and time', h('span', { id: 'receipt-time' }, receiptTime(doc.updatedAt))],
    ['From', me],
    ['To', h('span', { id: 'receipt-payee' }, ...(doc.payeeName
      ? [`${doc.payeeName} `, h('span', { className: 'phone' }, `(${doc.payeePhone})`)]
      : [h('span', { className: 'phone' }, doc.payeePhone)]))],
    ['Amount sent', money(doc.amount)],
    ...(q ? q.fees.map((/** @type {any} */ fee) => /** @type {[string, any]} */ ([fee.name, money(fee.amount)])) : []),
    q ? ['Total paid', h('span', { id: 'verdict-total' }, money(q.total))] : null,
    doc.note ? ['Note', h('span', { id: 'receipt-note' }, doc.note)] : null,
  ]);
}

/**
 * A transfer's screen, the view of `TransferWatch` (send-model.js): one function per state, the
 * quote's countdown, and the user's Accept and Decline forwarded to the model.
 * @param {HTMLElement} view
 * @param {{id: string}} params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderTransfer(view, params, _query, app) {
  /** @type {ReturnType<typeof setInterval> | null} */
  let ticker = null;
  const stopTicker = () => {
    if (ticker) clearInterval(ticker);
    ticker = null;
  };
  const watch = new TransferWatch(app.api, params.id, {
    sign: signPayment,
    onChange: (/** @type {any} */ state) => {
      stopTicker();
      screens[state.kind](state);
    },
  });

  /** Preparing or sending: the timeline and what the server is doing. @param {{kind: string, doc: any, error?: any}} state */
  function drawProgress({ kind, doc, error }) {
    const title = kind === 'sending' ? 'Sending…' : 'Preparing your transfer';
    ui.replace(view,
      h('h1', null, title),
      timeline(doc),
      h('p', { role: 'status', className: 'muted', id: 'transfer-status' }, kind === 'sending'
        ? 'Approved. Moving the money…'
        : 'Looking up the payee and quoting the fees…'));
    ui.setTitle(view, title);
    if (error) ui.showError(view, error);
  }

  /** @param {{doc: any, error?: any}} state */
  function drawQuote({ doc, error }) {
    const quote = doc.quote;
    const expires = Date.parse(quote.expiresAt);
    const countdown = h('span', { className: 'countdown', id: 'quote-countdown' }, ui.clock((expires - Date.now()) / 1000));
    const accept = ui.button('Accept fees and pay', async () => {
      /** @type {HTMLButtonElement} */ (decline).disabled = true;
      try {
        await ui.busy(accept, watch.accept());
      } finally {
        if (decline.isConnected) /** @type {HTMLButtonElement} */ (decline).disabled = false;
      }
    }, { id: 'transfer-accept' });
    const decline = ui.button('Decline', async () => {
      try {
        await ui.busy(decline, watch.decline());
      } catch (err) {
        ui.showError(view, err);
      }
    }, { kind: 'secondary', id: 'transfer-decline' });
    const box = h('section', { className: 'card', 'aria-labelledby': 'quote-h' },
      h('h2', { id: 'quote-h' }, 'Fee quote'),
      quoteDetails(quote, doc),
      doc.note ? h('p', { className: 'muted' }, `Note: ${doc.note}`) : null,
      h('p', { id: 'quote-expiry' }, 'This quote expires in ', countdown, '.'));
    ui.replace(view,
      h('h1', null, 'Do you still want to send?'),
      timeline(doc),
      box,
      h('p', { className: 'muted' }, 'Accepting asks for your passkey (fingerprint, face or screen lock); it signs exactly these fees for this payee.'),
      accept, decline);
    ui.setTitle(view, 'Do you still want to send?');
    if (error) ui.showError(box, error);
    const tick = () => {
      const left = (expires - Date.now()) / 1000;
      countdown.textContent = ui.clock(left);
      countdown.classList.toggle('low', left < 30);
      if (left <= 0 && !watch.busy) {
        stopTicker();
        /** @type {HTMLButtonElement} */ (accept).disabled = true;
        /** @type {HTMLButtonElement} */ (decline).disabled = true;
        ui.showNotice(box, 'The quote has expired. Waiting for the server…');
      }
    };
    ticker = setInterval(tick, 1000);
    tick();
  }

  /** @param {{doc: any, localAuthFailed: boolean, signedVia: string | null, error?: any}} state */
  function drawVerdict({ doc, localAuthFailed, signedVia, error }) {
    const s = doc.status;
    /** @type {[string, string, string, any[]]} */
    let v;
    if (s === 'SUCCESS') {
      v = ['Money sent', 'ok', '✓', [
        h('p', { id: 'verdict-message' }, `${ui.money(doc.amount, doc.currency)} sent to ${doc.payeeName || doc.payeePhone}.`),
        signedVia === 'spc' ? h('p', { className: 'muted', id: 'verdict-via' }, 'Approved in your browser\'s payment sheet (Secure Payment Confirmation).') : null]];
    } else if (s === 'DECLINED') {
      v = ['Transfer declined', 'neutral', '↩', [h('p', { id: 'verdict-message' }, 'You declined the fees. Nothing was sent and nothing was charged.')]];
    } else if (s === 'EXPIRED') {
      v = ['Quote expired', 'bad', '!', [
        h('p', { id: 'verdict-message' }, 'The fee quote expired before it was approved. Nothing was sent and nothing was charged.'),
        h('p', { className: 'muted' }, 'Start again for a fresh quote.')]];
    } else if (s === 'CANCELLED') {
      v = ['Transfer cancelled', 'neutral', '↩', [h('p', { id: 'verdict-message' }, localAuthFailed
        ? 'Your passkey check did not complete, so the transfer was cancelled. Nothing was charged.'
        : 'The transfer was cancelled. Nothing was charged.')]];
    } else {
      v = ['Transfer failed', 'bad', '✕', [
        h('p', { id: 'verdict-message' }, doc.error?.code ? `The transfer did not go through. ${ui.describeError(doc.error)}`
          : 'The transfer did not go through.'),
        doc.error ? ui.errorDetails(doc.error, { codeId: 'verdict-code' }) : null]];
    }
    const [title, tone, mark, body] = v;
    const again = s === 'SUCCESS' ? null : ui.link(`/send?payee=${encodeURIComponent(doc.payeePhone)}&amount=${doc.amount / 100}`,
      'Start again', { className: 'btn secondary', id: 'send-again' });
    // The result stays until the user leaves it: a receipt is read, not timed.
    ui.replace(view,
      h('h1', null, title),
      timeline(doc),
      h('div', { className: `card verdict ${tone}`, id: 'verdict', dataset: { status: s } },
        h('p', { className: 'mark', 'aria-hidden': 'true' }, mark), ...body),
      s === 'SUCCESS' ? transferReceipt(doc, app.user?.name || 'You') : null,
      ui.link('/', 'Back to dashboard', { className: 'btn primary', id: 'to-dashboard' }),
      again);
    ui.setTitle(view, title);
    if (error) ui.showError(view, error);
  }

  /** @type {Record<string, (state: any) => void>} */
  const screens = { preparing: drawProgress, sending: drawProgress, quote: drawQuote, verdict: drawVerdict };

  ui.setTitle(view, 'Transfer');
  secureConfirmation();
  await watch.start();
  return () => {
    stopTicker();
    watch.stop();
  };
}

export const routes = [
  { path: '/send', title: 'Send money', auth: true, render: renderNew },
  { path: '/send/:id', title: 'Transfer', auth: true, render: renderTransfer },
];
