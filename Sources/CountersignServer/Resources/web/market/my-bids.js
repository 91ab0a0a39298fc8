// `/market/my-bids`: the buyer's bids, newest first; an accepted one leads to its payment screen.

import { h, money, setTitle, link, dateTime } from '../ui.js';
import { marketApi } from './api.js';
import { bidPath, checkoutPath, myBidsPath } from './paths.js';
import { bidStatusText } from './format.js';
import { marketTabs, listItem, itemList, joined, addProducts, loader } from './common.js';

export async function renderMyBids(view, params, query, app) {
  setTitle(view, 'My bids');
  const market = marketApi(app.api);
  const box = h('section', { className: 'market-my-bids', 'aria-label': 'My bids' });
  view.append(marketTabs(myBidsPath), box);
  await loader(box, async () => {
    const bids = await market.myBids(100);
    const products = await addProducts(market, bids.map((bid) => bid.productId), new Map());
    // What the buyer can act on first: accepted bids to pay, then those waiting for the seller.
    const order = ['ACCEPTED', 'NEW'];
    const rank = (bid) => (order.includes(bid.status) ? order.indexOf(bid.status) : order.length);
    const sorted = [...bids].sort((a, b) => rank(a) - rank(b));
    return [itemList(sorted.map((bid) => {
      const title = products.get(bid.productId)?.title ?? 'A product';
      return listItem({
        path: bidPath(bid.id),
        title,
        lines: [joined(`${bid.buyNow ? 'Buy now' : 'Your bid'} ${money(bid.amount, bid.currency)}`, bidStatusText[bid.status] ?? bid.status),
          bid.expiresAt && bid.status === 'ACCEPTED' ? `Pay by ${dateTime(bid.expiresAt)}` : null],
        actions: [bid.status === 'ACCEPTED'
          ? link(checkoutPath(bid), `Pay ${money(bid.amount, bid.currency)}`, { className: 'btn primary small', id: `bid-pay-${bid.id}`, 'aria-label': `Pay ${money(bid.amount, bid.currency)} for ${title}` })
          : null],
        dataset: { bid: bid.id, status: bid.status },
      });
    }), 'No bids yet. Find something under For sale.', { id: 'market-my-bids' })];
  })();
}
