// `/market/orders/:id`: one order, for its buyer (pay, confirm receipt) or its seller (ship).

import { h, money, showError, busy, setTitle, link, details, button } from '../ui.js';
import { marketApi } from './api.js';
import { methodNames, orderStateText } from './format.js';
import { checkoutPath, orderPath, productPath, ordersPath } from './paths.js';
import { PICKUP } from './checkout-model.js';

export async function renderOrder(view, params, query, app) {
  const market = marketApi(app.api);
  setTitle(view, 'Order');
  let order;
  let product;
  let profile;
  try {
    profile = await market.profile();
    order = await market.order(params.id);
    product = await market.product(order.productId);
  } catch (error) {
    showError(view, error);
    view.append(h('p', null, link('/market', 'Back to the marketplace')));
    return;
  }
  const isSeller = product.sellerId === profile.userId;
  setTitle(view, `Order: ${product.title}`);
  const { totals } = order;
  const pickup = order.delivery === PICKUP;
  const delivery = pickup ? 'Pickup' : product.deliveryMethods.find((m) => m.id === order.delivery)?.name ?? order.delivery;
  view.append(
    h('p', { id: 'order-status', className: `market-order-status market-status-${order.status.toLowerCase()}`, role: 'status' }, orderStateText(order)),
    details([
      ['Delivery', delivery],
      ['Payment', methodNames[order.paymentMethod] ?? order.paymentMethod],
      ...totals.lines.map((line) => [line.name, money(line.amount, totals.currency)]),
      ['Total', h('strong', null, money(totals.total, totals.currency))],
    ], { className: 'details market-order' }));

  // The same screen again, with what the server says now.
  const again = () => app.navigate(orderPath(order.id));
  const actions = h('div', { className: 'actions' });
  view.append(actions);
  const act = (id, text, call) => button(text, async (event) => {
    showError(view, null);
    try {
      await busy(event.currentTarget, call());
      again();
    } catch (error) {
      showError(view, error);
    }
  }, { id });

  if (isSeller) {
    if (order.status === 'PAID') actions.append(act('order-ship', pickup ? 'Mark as handed over' : 'Mark as shipped', () => market.ship(order.id)));
    const next = { NEW: 'The buyer has not paid yet.', PAYMENT_PENDING: 'The buyer is paying.', PAID: `Paid: ${pickup ? 'hand it over' : 'send it'}, then mark it here.`,
      SHIPPED: 'Waiting for the buyer to confirm receipt; then the money is payable to you.', COMPLETED: 'Done: the money is payable to you.' }[order.status];
    if (next) view.append(h('p', { className: 'notice' }, next));
  } else {
    if (order.status === 'NEW' || order.status === 'PAYMENT_PENDING') {
      actions.append(link(checkoutPath({ id: order.bidId, productId: order.productId }), 'Go to payment', { className: 'btn primary', id: 'order-pay' }));
    }
    if (order.status === 'SHIPPED') actions.append(act('order-complete', 'Confirm receipt', () => market.complete(order.id)));
    const next = { PAID: `Paid. The seller ${pickup ? 'hands it over' : 'sends it'} next.`, SHIPPED: `${pickup ? 'Handed over' : 'On its way'}: confirm receipt once you have it.`,
      COMPLETED: 'Received. Thank you!' }[order.status];
    if (next) view.append(h('p', { className: 'notice' }, next));
  }
  actions.append(button('Refresh', again, { kind: 'secondary', id: 'order-refresh' }));
  view.append(h('p', null, link(productPath(product.id), 'The product'), ' · ', link(ordersPath, 'Orders')));
}
