// @ts-check
// `/market/orders`: the orders the user buys (to pay, to track, to confirm) and sells (to ship). Each
// order says which side the caller is on; its page is the receipt, to open again at any time.

import { h, money, busy, button, showError, setTitle, link, card } from '../ui.js';
import { orderPath, checkoutPath, ordersPath } from './paths.js';
import { orderStateText, payText } from './format.js';
import { marketTabs, listItem, itemList, joined, addProducts, loader } from './common.js';
import { PICKUP } from './checkout-model.js';

export async function renderOrders(view, params, query, app) {
  setTitle(view, 'Orders');
  const market = app.api.market;
  const box = h('div', { className: 'market-orders' });
  view.append(marketTabs(ordersPath), box);

  const reload = loader(box, async () => {
    const orders = await market.myOrders(100);
    const products = await addProducts(market, orders.map((order) => order.productId), new Map());
    const selling = (order) => order.role === 'seller';
    // An action on a row, then the lists again with what happened said.
    const act = (id, text, label, call, done) => button(text, async (event) => {
      showError(box, null);
      try {
        await busy(event.currentTarget, call());
        await reload(done);
      } catch (error) {
        showError(box, error);
      }
    }, { kind: 'primary small', id, 'aria-label': label });

    const item = (order, actions, next) => {
      const product = products.get(order.productId);
      const title = product?.title ?? 'A product';
      return listItem({
        path: orderPath(order.id),
        title,
        lines: [joined(money(order.totals.total, order.totals.currency), orderStateText(order),
          order.delivery === PICKUP ? 'pickup' : product?.deliveryMethods.find((m) => m.id === order.delivery)?.name,
          // Refunds pending or returned; the order's page says which and why.
          order.refunded ? `${money(order.refunded, order.totals.currency)} refunded` : null), next],
        actions: actions(title),
        dataset: { order: order.id, status: order.status },
      });
    };
    const buying = orders.filter((order) => !selling(order)).map((order) => item(order, (title) => {
      if (order.status === 'NEW' || order.status === 'PAYMENT_PENDING') {
        return [link(checkoutPath({ id: order.bidId, productId: order.productId }), payText(null, order),
          { className: 'btn primary small', id: `order-pay-${order.id}`, 'aria-label': `${payText(null, order)} for ${title}` })];
      }
      // Confirming receipt pays the seller and cannot be undone: the order's page asks first.
      if (order.status === 'SHIPPED') {
        return [link(orderPath(order.id), 'Confirm receipt', { className: 'btn primary small', id: `order-complete-${order.id}`,
          'aria-label': `Confirm you received ${title}` })];
      }
      return [];
    }, { PAID: 'The seller sends it or hands it over next.', SHIPPED: 'Confirm receipt once you have it.' }[order.status]));
    const sold = orders.filter(selling).map((order) => {
      const pickup = order.delivery === PICKUP;
      const to = order.buyer ? `For ${order.buyer.name}${order.shippingAddress ? `, ${order.shippingAddress.city}` : ''}` : null;
      return item(order, (title) => (order.status === 'PAID'
        ? [act(`order-ship-${order.id}`, pickup ? 'Mark as handed over' : 'Mark as shipped', `${pickup ? 'Mark as handed over' : 'Mark as shipped'}: ${title}`,
          () => market.ship(order.id), `${title} is marked as ${pickup ? 'handed over' : 'shipped'}. The money is payable to you once the buyer confirms receipt.`)]
        : []), joined(to, { PAID: pickup ? 'Paid: hand it over, then mark it.' : 'Paid: send it, then mark it.', SHIPPED: 'Waiting for the buyer to confirm receipt.' }[order.status]));
    });
    const toShip = orders.filter((order) => selling(order) && order.status === 'PAID').length;
    const toAct = orders.filter((order) => !selling(order) && ['NEW', 'PAYMENT_PENDING', 'SHIPPED'].includes(order.status)).length;
    return [
      card(h('h2', { id: 'orders-buying' }, joined('Buying', toAct ? `${toAct} to do` : null)),
        itemList(buying, 'Nothing bought yet.', { 'aria-labelledby': 'orders-buying', id: 'market-buying' })),
      card(h('h2', { id: 'orders-selling' }, joined('Selling', toShip ? `${toShip} to ship` : null)),
        itemList(sold, 'Nothing sold yet.', { 'aria-labelledby': 'orders-selling', id: 'market-selling' })),
    ];
  });
  await reload();
}
