// @ts-check
// Words and numbers of the marketplace screens.

import { money } from '../ui.js';

/** "12", "12.5" or "12,50" (euros) → cents; null when it is not a positive amount. */
export function parseEuros(text) {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(String(text ?? ''));
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** Cents → "12.50" for an input's value. */
export const eurosText = (cents) => (cents / 100).toFixed(2);

export const methodNames = { card: 'Card', ideal: 'iDEAL', bancontact: 'Bancontact', wallet: 'Wallet' };

/** A bid's state in its bidder's words (bids-list.js speaks to the seller). */
export const bidStatusText = {
  NEW: 'Waiting for the seller',
  ACCEPTED: 'Accepted: ready to pay',
  CANCELED: 'Withdrawn',
  EXPIRED: 'Expired',
  COMPLETED: 'Bought',
};

/** Why a bid ended, in its bidder's words, from the server's `closedReason`. */
export const bidClosedText = {
  withdrawn: 'Withdrawn',
  declined: 'Declined by the seller',
  sold: 'Sold to another buyer',
  expired: 'Expired',
};

/** A bid's state for its bidder: an ended bid says why. */
export const bidStateText = (bid) => bidClosedText[bid.closedReason] ?? bidStatusText[bid.status] ?? bid.status;

/**
 * What paying an accepted bid costs and what its button says, the same on every screen: once the bid
 * has an order, the order's total (shipping and fee included) with "Pay" or, while a payment is under
 * way, "Continue paying"; before that there is no total yet, so no amount.
 * @param {{amount: number, currency: string} | null} bid the bid (not read: an order's total is what it costs)
 * @param {{status: string, totals: {total: number, currency: string}} | null | undefined} order
 */
export function payText(bid, order) {
  if (!order) return 'Go to payment';
  const verb = order.status === 'PAYMENT_PENDING' ? 'Continue paying' : 'Pay';
  return `${verb} ${money(order.totals.total, order.totals.currency)}`;
}

export const orderStatusText = {
  NEW: 'Not paid yet',
  PAYMENT_PENDING: 'Payment under way',
  PAID: 'Paid',
  SHIPPED: 'Shipped',
  COMPLETED: 'Received',
  CANCELED: 'Canceled',
  EXPIRED: 'Expired',
};

/** An order's state for people; a pickup (checkout-model.js's PICKUP) is handed over, not shipped. */
export const orderStateText = (order) => (order.delivery === 'pickup' && order.status === 'SHIPPED' ? 'Handed over' : orderStatusText[order.status] ?? order.status);

export const paidStatuses = ['PAID', 'SHIPPED', 'COMPLETED'];

/** Countries a product ships from or an address is in; the server takes any ISO code. */
export const countries = [
  ['NL', 'Netherlands'], ['BE', 'Belgium'], ['DE', 'Germany'], ['FR', 'France'], ['LU', 'Luxembourg'],
  ['GB', 'United Kingdom'], ['IE', 'Ireland'], ['ES', 'Spain'], ['IT', 'Italy'], ['AT', 'Austria'],
  ['DK', 'Denmark'], ['SE', 'Sweden'], ['PL', 'Poland'], ['PT', 'Portugal'],
];

export const shippingMethods = [
  ['postnl_standard', 'PostNL standard'],
  ['postnl_registered', 'PostNL registered'],
];

/** A message for a failed payment attempt's code, in the buyer's words. */
export function paymentFailureText(failure) {
  switch (failure?.code) {
    case 'card_declined': return 'Your card was declined. Nothing was taken; choose another card or way to pay.';
    case 'insufficient_funds': return 'The card has too little money. Nothing was taken; choose another card or way to pay.';
    case 'payment_canceled': return 'The payment was stopped. Nothing was taken; choose again.';
    // The provider's own text is for support, never the headline.
    default: return 'The payment did not go through. Nothing was taken; try again, or choose another way to pay.';
  }
}
