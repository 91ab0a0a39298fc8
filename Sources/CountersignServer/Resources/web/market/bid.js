// @ts-check
// `/market/bids/:id`: one bid, for its buyer (withdraw, pay once accepted) or the seller (accept,
// decline). An ended bid tells its bidder why.

import { h, money, showError, busy, setTitle, link, details, button, dateTime } from '../ui.js';
import { bidStateText, payText } from './format.js';
import { confirmed } from './common.js';
import { bidPath, checkoutPath, orderPath, productPath, myBidsPath, myProductsPath, ordersPath } from './paths.js';

export async function renderBid(view, params, query, app) {
  const market = app.api.market;
  setTitle(view, 'Bid');
  let bid;
  let product;
  let profile;
  try {
    profile = await market.profile();
    bid = await market.getBid(params.id);
    product = await market.product(bid.productId);
  } catch (error) {
    showError(view, error);
    view.append(h('p', null, link('/market', 'Back to the marketplace')));
    return;
  }
  const me = profile.userId;
  const isSeller = product.sellerId === me;
  setTitle(view, isSeller ? `A bid on ${product.title}` : `Your bid on ${product.title}`);
  view.append(details([
    ['Amount', money(bid.amount, bid.currency)],
    ['Asking price', money(product.askingPrice, product.currency)],
    ['Status', h('span', { id: 'bid-status', className: `market-status-${bid.status.toLowerCase()}` }, bidStateText(bid))],
    bid.buyNow ? ['Kind', 'Buy now'] : null,
    bid.expiresAt ? ['Expires', dateTime(bid.expiresAt)] : null,
  ], { className: 'details market-bid-details' }));

  // The same screen again, with what the server says now.
  const again = () => app.navigate(bidPath(bid.id));
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
  const act = (id, text, call, kind = 'primary') => button(text, run(call), { kind, id });

  if (isSeller) {
    if (bid.status === 'NEW') {
      actions.append(act('bid-accept', `Accept ${money(bid.amount, bid.currency)}`, () => market.acceptBid(bid.id)),
        confirmed({ text: 'Decline', id: 'bid-decline', kind: 'danger',
          question: `Decline the bid of ${money(bid.amount, bid.currency)}? The buyer sees that you said no, and you cannot accept it afterwards.`,
          confirmText: 'Yes, decline it', run: run(() => market.declineBid(bid.id)) }));
    } else if (bid.status === 'ACCEPTED') view.append(h('p', { className: 'notice' }, 'Accepted. The buyer pays next; the order then waits under Orders for you to send it.'));
    else if (bid.closedReason === 'declined') view.append(h('p', { className: 'notice' }, 'You declined this bid.'));
  } else {
    // Its order, once it has one (the bid names it): the amount to pay and a link to it.
    const order = await market.orderOf(bid).catch(() => null);
    if (bid.status === 'ACCEPTED') actions.append(link(checkoutPath(bid), payText(bid, order), { className: 'btn primary', id: 'bid-pay' }));
    if (bid.status === 'NEW') view.append(h('p', { className: 'notice' }, 'The seller sees your bid with their products. Once they accept it, you pay from here or from My bids.'));
    if (bid.status === 'NEW' || bid.status === 'ACCEPTED') {
      actions.append(confirmed({ text: 'Withdraw bid', id: 'bid-withdraw', kind: 'danger',
        question: `Withdraw your bid of ${money(bid.amount, bid.currency)}? The seller can no longer accept it.`,
        confirmText: 'Yes, withdraw it', run: run(() => market.withdrawBid(bid.id)) }));
    }
    const why = { declined: 'The seller declined this bid. You can make another offer on the product while it is for sale.',
      sold: 'The product sold to another buyer, so this bid ended. Nothing was paid.',
      expired: 'This bid ended without a sale. Nothing was paid; you can bid again while the product is for sale.' }[bid.closedReason];
    if (why) view.append(h('p', { className: 'notice', id: 'bid-why' }, why));
    if (order) actions.append(link(orderPath(order.id), 'See the order', { className: 'btn secondary', id: 'bid-order' }));
  }
  actions.append(button('Refresh', again, { kind: 'secondary', id: 'bid-refresh' }));
  view.append(h('p', null, link(productPath(product.id), 'The product'), ' · ',
    isSeller ? link(myProductsPath, 'My products') : link(myBidsPath, 'My bids'), ' · ', link(ordersPath, 'Orders')));
}
