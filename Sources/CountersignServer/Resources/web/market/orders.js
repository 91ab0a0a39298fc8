// `/market/orders`: the orders the user buys (to pay, to track, to confirm) and sells (to ship).
// An order does not say which side the caller is on: the seller's products and the buyer's bids tell,
// and for an older one beyond those lists, its product's seller.

import { h, money, busy, button, showError, setTitle, link, card } from '../ui.js';
import { marketApi } from './api.js';
import { orderPath, checkoutPath, ordersPath } from './paths.js';
import { orderStateText } from './format.js';
import { marketTabs, listItem, itemList, joined, addProducts, loader } from './common.js';
import { PICKUP } from './checkout-model.js';

export async function renderOrders(view, params, query, app) {
  setTitle(view, 'Orders');
  const market = marketApi(app.api);
  const box = h('div', { className: 'market-orders' });
  view.append(marketTabs(ordersPath), box);

  const reload = loader(box, async () => {
    const [profile, orders, mine, bids] = await Promise.all([market.profile(), market.myOrders(100), market.myProducts(100), market.myBids(100)]);
    const products = new Map(mine.map((product) => [product.id, product]));
    const myBids = new Set(bids.map((bid) => bid.id));
    await addProducts(market, orders.map((order) => order.productId), products);
    const selling = (order) => !myBids.has(order.bidId) && products.get(order.productId)?.sellerId === profile.userId;
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
          order.delivery === PICKUP ? 'pickup' : product?.deliveryMethods.find((m) => m.id === order.delivery)?.name), next],
        actions: actions(title),
        dataset: { order: order.id, status: order.status },
      });
    };
    const buying = orders.filter((order) => !selling(order)).map((order) => item(order, (title) => {
      if (order.status === 'NEW' || order.status === 'PAYMENT_PENDING') {
        return [link(checkoutPath({ id: order.bidId, productId: order.productId }), order.status === 'NEW' ? 'Pay' : 'Continue paying',
          { className: 'btn primary small', id: `order-pay-${order.id}`, 'aria-label': `Pay for ${title}` })];
      }
      if (order.status === 'SHIPPED') {
        return [act(`order-complete-${order.id}`, 'Confirm receipt', `Confirm you received ${title}`,
          () => market.complete(order.id), `You confirmed receiving ${title}. Thank you!`)];
      }
      return [];
    }, { PAID: 'The seller sends it or hands it over next.', SHIPPED: 'Confirm receipt once you have it.' }[order.status]));
    const sold = orders.filter(selling).map((order) => {
      const pickup = order.delivery === PICKUP;
      return item(order, (title) => (order.status === 'PAID'
        ? [act(`order-ship-${order.id}`, pickup ? 'Mark as handed over' : 'Mark as shipped', `${pickup ? 'Mark as handed over' : 'Mark as shipped'}: ${title}`,
          () => market.ship(order.id), `${title} is marked as ${pickup ? 'handed over' : 'shipped'}. The money is payable to you once the buyer confirms receipt.`)]
        : []), { PAID: pickup ? 'Paid: hand it over, then mark it.' : 'Paid: send it, then mark it.', SHIPPED: 'Waiting for the buyer to confirm receipt.' }[order.status]);
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
