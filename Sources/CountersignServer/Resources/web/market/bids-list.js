// The bids on a seller's product, each with what the seller can do: accept an open one.

import { h, money, busy, button, showError, dateTime } from '../ui.js';
import { bidPath } from './paths.js';
import { listItem, itemList } from './common.js';

const open = ['NEW', 'ACCEPTED', 'COMPLETED'];

/** A bid's state in the seller's words (format.js's bidStatusText speaks to the buyer). */
const sellerStatusText = { NEW: 'Waiting for your answer', ACCEPTED: 'Accepted: waiting for the buyer to pay', COMPLETED: 'Sold' };

/**
 * The bids of `product` for its seller: open, accepted and sold ones listed, withdrawn and expired
 * ones counted. `accept(bid)` runs when the seller accepts one (errors shown beside the list).
 */
export function sellerBids(product, bids, accept) {
  const shown = bids.filter((bid) => open.includes(bid.status));
  const closed = bids.length - shown.length;
  const box = h('div', { className: 'market-bids' });
  const items = shown.map((bid) => listItem({
    path: bidPath(bid.id),
    title: `${bid.buyNow ? 'Buy now' : 'Bid'} ${money(bid.amount, bid.currency)}`,
    lines: [sellerStatusText[bid.status] ?? bid.status,
      bid.status === 'NEW' && bid.expiresAt ? `Answer by ${dateTime(bid.expiresAt)}` : null],
    actions: [bid.status === 'NEW' ? button('Accept', async (event) => {
      showError(box, null);
      try {
        await busy(event.currentTarget, accept(bid));
      } catch (error) {
        showError(box, error);
      }
    }, { kind: 'primary small', id: `bid-accept-${bid.id}`, 'aria-label': `Accept the bid of ${money(bid.amount, bid.currency)} on ${product.title}` }) : null],
    dataset: { bid: bid.id, status: bid.status },
  }));
  box.append(itemList(items, product.available ? 'No bids yet.' : 'No open bids.'));
  if (closed) box.append(h('p', { className: 'hint' }, `${closed} withdrawn or expired.`));
  return box;
}
