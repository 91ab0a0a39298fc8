// @ts-check
// The bids on a seller's product, each with what the seller can do: accept or decline an open one.

import { h, money, busy, button, showError, dateTime } from '../ui.js';
import { bidPath } from './paths.js';
import { listItem, itemList, confirmed } from './common.js';

const open = ['NEW', 'ACCEPTED', 'COMPLETED'];

/** A bid's state in the seller's words (format.js's bidStatusText speaks to the buyer). */
const sellerStatusText = { NEW: 'Waiting for your answer', ACCEPTED: 'Accepted: waiting for the buyer to pay', COMPLETED: 'Sold' };

/**
 * The bids of `product` for its seller: open, accepted and sold ones listed, ended ones counted.
 * `accept(bid)` and `decline(bid)` run when the seller answers one (errors shown beside the list).
 */
export function sellerBids(product, bids, accept, decline) {
  const shown = bids.filter((bid) => open.includes(bid.status));
  const closed = bids.length - shown.length;
  const box = h('div', { className: 'market-bids' });
  const run = (call, bid) => async (event) => {
    showError(box, null);
    try {
      await busy(event.currentTarget, call(bid));
    } catch (error) {
      showError(box, error);
    }
  };
  const items = shown.map((bid) => {
    const amount = money(bid.amount, bid.currency);
    return listItem({
      path: bidPath(bid.id),
      title: `${bid.buyNow ? 'Buy now' : 'Bid'} ${amount}`,
      lines: [sellerStatusText[bid.status] ?? bid.status,
        bid.status === 'NEW' && bid.expiresAt ? `Answer by ${dateTime(bid.expiresAt)}` : null],
      actions: bid.status === 'NEW' ? [
        button('Accept', run(accept, bid), { kind: 'primary small', id: `bid-accept-${bid.id}`, 'aria-label': `Accept the bid of ${amount} on ${product.title}` }),
        confirmed({ text: 'Decline', id: `bid-decline-${bid.id}`, kind: 'danger small', label: `Decline the bid of ${amount} on ${product.title}`,
          question: `Decline the bid of ${amount}? The buyer sees that you said no, and you cannot accept it afterwards.`,
          confirmText: 'Yes, decline it', run: run(decline, bid) }),
      ] : [],
      dataset: { bid: bid.id, status: bid.status },
    });
  });
  box.append(itemList(items, product.available ? 'No bids yet.' : 'No open bids.'));
  if (closed) box.append(h('p', { className: 'hint' }, `${closed} ended: withdrawn, declined, expired or outbid by the sale.`));
  return box;
}
