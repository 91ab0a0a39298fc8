// @ts-check
// An order's refunds: the table both sides see, and the seller's "Refund" form (amount, reason, a
// confirmation), on the order screen.

import { h, money, showError, busy, field, fieldError, table, dateTime, confirmStep } from '../ui.js';
import { newIdempotencyKey } from '../countersign.js';
import { parseEuros, eurosText } from './format.js';

/** A refund's state in words both sides understand. */
export const refundStatusText = (refund) => ({
  pending: 'Being returned: the payment provider is working on it.',
  succeeded: 'Returned to the buyer.',
  failed: `Not returned: ${refund.failureMessage ?? 'the payment provider could not return it.'}`,
}[refund.status] ?? refund.status);

/** The order's refunds, oldest first: amount, reason, where it stands, when. */
export function refundsTable(order) {
  return h('section', { className: 'market-refunds', id: 'order-refunds' },
    h('h2', null, 'Refunds'),
    table({
      id: 'order-refunds-table',
      columns: ['Amount', 'Reason', 'Status', 'When'],
      rows: order.refunds.map((refund) => ({
        attrs: { dataset: { status: refund.status } },
        cells: [
          money(refund.amount, refund.currency), refund.reason,
          h('span', { className: `market-refund-${refund.status}` }, refundStatusText(refund)),
          h('time', { dateTime: refund.createdAt }, dateTime(refund.createdAt)),
        ],
      })),
    }),
    h('p', { className: 'muted', id: 'order-refundable' },
      `Refunded ${money(order.refunded, order.totals.currency)}; up to ${money(order.refundable, order.totals.currency)} more can be refunded.`));
}

/**
 * The seller's refund: how much (at most what the order has left) and why, asked once more before
 * the money goes back. One Idempotency-Key per refund the form makes, kept across its retries.
 */
export function refundForm(order, market, done) {
  const currency = order.totals.currency;
  const amount = field(`Amount to refund (${currency})`, {
    id: 'refund-amount', name: 'amount', required: true, inputMode: 'decimal', autocomplete: 'off',
    value: eurosText(order.refundable), hint: `At most ${money(order.refundable, currency)}.`,
  });
  const reason = field('Reason (the buyer sees it)', {
    id: 'refund-reason', name: 'reason', required: true, maxLength: 200, autocomplete: 'off', placeholder: 'Arrived damaged',
  });
  const submit = h('button', { type: 'submit', className: 'btn', id: 'refund-submit' }, 'Refund');
  const form = h('form', { className: 'market-refund card', id: 'refund-form' },
    h('h2', null, 'Refund the buyer'), amount, reason, h('div', { className: 'actions' }, submit));
  let key = newIdempotencyKey();
  let asked = '';
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    showError(form, null);
    fieldError(amount, null);
    fieldError(reason, null);
    const cents = parseEuros(amount.input.value);
    const why = reason.input.value.trim();
    if (cents === null) return fieldError(amount, 'Enter the amount in euros, for example 10 or 12.50.');
    if (cents > order.refundable) return fieldError(amount, `At most ${money(order.refundable, currency)} can be refunded.`);
    if (!why) return fieldError(reason, 'Say why you are refunding; the buyer sees it.');
    const ok = await confirmStep(form, {
      id: 'refund-confirm',
      message: `Give ${money(cents, currency)} back to the buyer? It leaves what is held for you and cannot be undone.`,
      confirm: `Yes, refund ${money(cents, currency)}`,
      returnTo: submit,
    });
    if (!ok) return undefined;
    // A new refund gets a new key; a retry of the same one (same amount and reason) keeps it.
    const request = `${cents}\n${why}`;
    if (request !== asked) key = newIdempotencyKey();
    asked = request;
    try {
      await busy(submit, market.refund(order.id, { amount: cents, reason: why }, key));
      done();
    } catch (error) {
      showError(form, error);
    }
    return undefined;
  });
  return form;
}
