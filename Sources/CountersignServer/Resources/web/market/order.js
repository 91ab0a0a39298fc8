// @ts-check
// `/market/orders/:id`: one order, for its buyer (pay, confirm receipt) or its seller (ship). Once
// paid it is also the receipt: a reference, its times in the user's zone, both sides, every amount;
// the seller sees where to send it, and for a pickup each side sees how to reach the other.

import { h, money, showError, busy, setTitle, link, details, dateTime, button } from '../ui.js';
import { methodNames, orderStateText, paidStatuses, payText } from './format.js';
import { refundsTable, refundForm } from './refunds.js';
import { checkoutPath, orderPath, productPath, ordersPath } from './paths.js';
import { PICKUP } from './checkout-model.js';
import { confirmed } from './common.js';

/** "Bea de Vries, Dam 1, 1012 AB Amsterdam, NL" as lines. */
const addressLines = (address) => h('span', { className: 'market-address' },
  address.name, h('br'), address.line1, h('br'), `${address.postalCode} ${address.city}`, h('br'), address.country);

/** A side of the order: the name, and the phone number (a pickup) as a link to call. */
const party = (who) => (who.phone
  ? h('span', null, who.name, h('br'), h('a', { href: `tel:${who.phone}`, className: 'market-phone' }, who.phone))
  : who.name);

export async function renderOrder(view, params, query, app) {
  const market = app.api.market;
  setTitle(view, 'Order');
  let order;
  let product;
  try {
    order = await market.order(params.id);
    product = await market.product(order.productId);
  } catch (error) {
    showError(view, error);
    view.append(h('p', null, link('/market', 'Back to the marketplace')));
    return;
  }
  const isSeller = order.role === 'seller';
  const paid = paidStatuses.includes(order.status);
  setTitle(view, `${paid ? 'Receipt' : 'Order'}: ${product.title}`);
  const { totals } = order;
  const pickup = order.delivery === PICKUP;
  const delivery = pickup ? 'Pickup' : product.deliveryMethods.find((m) => m.id === order.delivery)?.name ?? order.delivery;
  view.append(
    h('p', { id: 'order-status', className: `market-order-status market-status-${order.status.toLowerCase()}`, role: 'status' }, orderStateText(order)),
    details([
      ['Reference', h('code', { id: 'order-reference' }, order.id)],
      ['Product', product.title],
      order.createdAt ? ['Ordered', h('time', { dateTime: order.createdAt }, dateTime(order.createdAt))] : null,
      paid && order.updatedAt ? ['Last change', h('time', { dateTime: order.updatedAt }, dateTime(order.updatedAt))] : null,
      order.buyer ? ['Buyer', h('span', { id: 'order-buyer' }, party(order.buyer))] : null,
      order.seller ? ['Seller', h('span', { id: 'order-seller' }, party(order.seller))] : null,
      ['Delivery', delivery],
      order.shippingAddress ? ['Ship to', h('span', { id: 'order-address' }, addressLines(order.shippingAddress))] : null,
      ['Payment', methodNames[order.paymentMethod] ?? order.paymentMethod],
      ...totals.lines.map((line) => [line.name, money(line.amount, totals.currency)]),
      ['Total', h('strong', null, money(totals.total, totals.currency))],
    ].filter(Boolean), { className: 'details market-order', id: 'order-receipt' }));

  // The same screen again, with what the server says now.
  const again = () => app.navigate(orderPath(order.id));
  const actions = h('div', { className: 'actions' });
  view.append(actions);
  const run = (call) => async (event) => {
    showError(view, null);
    try {
      await busy(event.currentTarget, call());
      again();
    } catch (error) {
      showError(view, error);
    }
  };

  if (isSeller) {
    if (order.status === 'PAID') actions.append(button(pickup ? 'Mark as handed over' : 'Mark as shipped', run(() => market.ship(order.id)), { id: 'order-ship' }));
    const next = { NEW: 'The buyer has not paid yet.', PAYMENT_PENDING: 'The buyer is paying.',
      PAID: pickup ? 'Paid: agree with the buyer when they collect it (their number is above), hand it over, then mark it here.'
        : 'Paid: send it to the address above, then mark it here.',
      SHIPPED: 'Waiting for the buyer to confirm receipt; then the money is payable to you.', COMPLETED: 'Done: the money is payable to you.' }[order.status];
    if (next) view.append(h('p', { className: 'notice' }, next));
  } else {
    if (order.status === 'NEW' || order.status === 'PAYMENT_PENDING') {
      actions.append(link(checkoutPath({ id: order.bidId, productId: order.productId }), payText(null, order), { className: 'btn primary', id: 'order-pay' }));
    }
    if (order.status === 'SHIPPED') {
      // Confirming releases the seller's money from escrow: it cannot be taken back.
      const released = money(totals.subtotal + totals.shipping, totals.currency);
      actions.append(confirmed({
        text: 'Confirm receipt',
        id: 'order-complete',
        question: `Only confirm once you have ${product.title}. ${order.seller?.name ?? 'The seller'} is then paid ${released} and you cannot undo it.`,
        confirmText: `Yes, I have it: release ${released}`,
        run: run(() => market.complete(order.id)),
      }));
    }
    const next = { PAID: pickup ? 'Paid. Agree with the seller when you collect it (their number is above).' : 'Paid. The seller sends it next.',
      SHIPPED: `${pickup ? 'Handed over' : 'On its way'}: confirm receipt once you have it.`,
      COMPLETED: 'Received. Thank you!' }[order.status];
    if (next) view.append(h('p', { className: 'notice' }, next));
  }
  // Right under the receipt, for both sides: what went back, why, and where it stands.
  if (paid && order.refunds?.length) actions.before(refundsTable(order));
  // The seller refunds until the buyer's confirmation releases the money; after that, an operator.
  if (isSeller && (order.status === 'PAID' || order.status === 'SHIPPED') && order.refundable > 0) {
    view.append(refundForm(order, market, again));
  }
  actions.append(button('Refresh', again, { kind: 'secondary', id: 'order-refresh' }));
  view.append(h('p', null, link(productPath(product.id), 'The product'), ' · ', link(ordersPath, 'Orders')));
}
