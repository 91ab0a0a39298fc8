// @ts-check
// `/market/my-bids`: the buyer's bids, newest first; an accepted one leads to its payment screen,
// with the same amount and words as its order (format.js's payText).

import { h, money, setTitle, link, dateTime } from '../ui.js';
import { bidPath, checkoutPath, myBidsPath } from './paths.js';
import { bidStateText, payText } from './format.js';
import { marketTabs, listItem, itemList, joined, addProducts, loader } from './common.js';

export async function renderMyBids(view, params, query, app) {
  setTitle(view, 'My bids');
  const market = app.api.market;
  const box = h('section', { className: 'market-my-bids', 'aria-label': 'My bids' });
  view.append(marketTabs(myBidsPath), box);
  await loader(box, async () => {
    const [bids, orders] = await Promise.all([market.myBids(100), market.myOrders(100)]);
    const orderOf = new Map(orders.map((order) => [order.bidId, order]));
    const products = await addProducts(market, bids.map((bid) => bid.productId), new Map());
    // What the buyer can act on first: accepted bids to pay, then those waiting for the seller.
    const order = ['ACCEPTED', 'NEW'];
    const rank = (bid) => (order.includes(bid.status) ? order.indexOf(bid.status) : order.length);
    const sorted = [...bids].sort((a, b) => rank(a) - rank(b));
    return [itemList(sorted.map((bid) => {
      const title = products.get(bid.productId)?.title ?? 'A product';
      const pay = payText(bid, orderOf.get(bid.id));
      return listItem({
        path: bidPath(bid.id),
        title,
        lines: [joined(`${bid.buyNow ? 'Buy now' : 'Your bid'} ${money(bid.amount, bid.currency)}`, bidStateText(bid)),
          bid.expiresAt && bid.status === 'ACCEPTED' ? `Pay by ${dateTime(bid.expiresAt)}` : null],
        actions: [bid.status === 'ACCEPTED'
          ? link(checkoutPath(bid), pay, { className: 'btn primary small', id: `bid-pay-${bid.id}`, 'aria-label': `${pay} for ${title}` })
          : null],
        dataset: { bid: bid.id, status: bid.status },
      });
    }), 'No bids yet. Find something under For sale.', { id: 'market-my-bids' })];
  })();
}
