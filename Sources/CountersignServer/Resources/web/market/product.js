// @ts-check
// `/market/products/:id`: the product. A buyer bids or buys now; its seller sees the bids to accept.

import { h, money, showError, busy, setTitle, field, link, details, button, card } from '../ui.js';
import { parseEuros, countries, bidStatusText, payText } from './format.js';
import { bidPath, checkoutPath, myBidsPath, myProductsPath } from './paths.js';
import { listItem, itemList, loader } from './common.js';
import { sellerBids } from './bids-list.js';

export async function renderProduct(view, params, query, app) {
  const market = app.api.market;
  setTitle(view, 'Product');
  let product;
  let profile;
  try {
    profile = await market.profile();
    product = await market.product(params.id);
  } catch (error) {
    showError(view, error);
    view.append(h('p', null, link('/market', 'Back to the marketplace')));
    return;
  }
  const me = profile.userId;
  setTitle(view, product.title);
  const country = countries.find(([code]) => code === product.shipFromCountry)?.[1] ?? product.shipFromCountry;
  view.append(details([
    ['Asking price', money(product.askingPrice, product.currency)],
    ['Ships from', country],
    ['Delivery', product.deliveryMethods.map((m) => m.name).join(', ')],
    ['Status', h('span', { id: 'product-status' }, product.available ? 'For sale' : product.sold ? 'Sold' : 'Reserved for a buyer')],
  ], { className: 'details market-product' }));

  const isSeller = product.sellerId === me;
  const more = h('div', { className: 'market-product-more' });
  view.append(more, h('p', null, link('/market', 'For sale'), ' · ', isSeller ? link(myProductsPath, 'My products') : link(myBidsPath, 'My bids')));
  if (isSeller) await seller(more, market, product);
  else await buyer(more, market, product, app);
}

const openBids = ['NEW', 'ACCEPTED'];

async function buyer(view, market, product, app) {
  // The buyer's own open bids on it first: an accepted one is theirs to pay.
  let mine = [];
  try {
    mine = (await market.myBids(100)).filter((bid) => bid.productId === product.id && openBids.includes(bid.status));
  } catch (error) {
    showError(view, error);
  }
  if (mine.length) {
    const orders = await Promise.all(mine.map((bid) => market.orderOf(bid).catch(() => null)));
    view.append(card(h('h2', null, 'Your bids on it'), itemList(mine.map((bid, index) => listItem({
      path: bidPath(bid.id),
      title: `${bid.buyNow ? 'Buy now' : 'Your bid'} ${money(bid.amount, bid.currency)}`,
      lines: [bidStatusText[bid.status] ?? bid.status],
      actions: [bid.status === 'ACCEPTED' ? link(checkoutPath(bid), payText(bid, orders[index]), { className: 'btn primary small', id: `bid-pay-${bid.id}` }) : null],
      dataset: { bid: bid.id, status: bid.status },
    })), '')));
  }
  if (!product.available) {
    if (product.sold) {
      view.append(h('p', { role: 'status', className: 'notice', id: 'product-sold' }, 'This product is sold, so it takes no more bids. Find something else under For sale.'));
    } else if (!mine.some((bid) => bid.status === 'ACCEPTED')) {
      view.append(h('p', { role: 'status', className: 'notice' }, 'Another buyer holds this product right now. It may come back if they do not pay.'));
    }
    return;
  }
  // An offer is for less than the asking price: the asking price is paid with Buy now, at once. An
  // offer at or above it is allowed, but only after the buyer saw this and pressed again.
  const asking = money(product.askingPrice, product.currency);
  const amount = field('Your bid (EUR)', { id: 'bid-amount', name: 'amount', required: true, inputMode: 'decimal', autocomplete: 'off',
    hint: `The asking price is ${asking}. To pay that, use Buy now.` });
  const place = h('button', { type: 'submit', className: 'btn secondary', id: 'bid-submit' }, 'Place bid');
  const warning = h('p', { className: 'warn-box', id: 'bid-warning', role: 'alert', hidden: true });
  const bidForm = h('form', { className: 'card market-bid', 'aria-label': 'Bid' }, h('h2', null, 'Make an offer'), amount, warning, place);
  let warnedFor = null; // the amount the buyer was warned about and may now bid
  amount.input.addEventListener('input', () => {
    warnedFor = null;
    warning.hidden = true;
    place.textContent = 'Place bid';
  });
  bidForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    showError(bidForm, null);
    const cents = parseEuros(amount.input.value);
    if (cents === null) {
      showError(bidForm, 'Enter your bid in euros, for example 80 or 79.50.');
      amount.input.focus();
      return;
    }
    if (cents >= product.askingPrice && warnedFor !== cents) {
      const offered = money(cents, product.currency);
      warning.textContent = cents === product.askingPrice
        ? `${offered} is the asking price. Buy now gets it at that price without waiting for the seller.`
        : `${offered} is more than the asking price of ${asking}: you would pay ${money(cents - product.askingPrice, product.currency)} more than the seller asks. Buy now pays the asking price. Check the amount, or press again to bid ${offered} anyway.`;
      warning.hidden = false;
      warnedFor = cents;
      place.textContent = `Bid ${offered} anyway`;
      return;
    }
    try {
      const bid = await busy(place, market.bid(product.id, cents));
      app.navigate(bidPath(bid.id));
    } catch (error) {
      showError(bidForm, error);
    }
  });
  const buyNow = button(`Buy now for ${money(product.askingPrice, product.currency)}`, async () => {
    showError(buyBox, null);
    try {
      // Buy now is a bid at the asking price, accepted at once; the payment screen withdraws it if
      // the buyer gives up.
      const bid = await busy(buyNow, market.buyNow(product.id));
      app.navigate(checkoutPath(bid));
    } catch (error) {
      showError(buyBox, error);
    }
  }, { id: 'buy-now' });
  const buyBox = card(h('h2', null, 'Buy it now'), h('p', { className: 'hint' }, 'Reserves it for you while you pay.'), buyNow);
  view.append(buyBox, bidForm);
}

async function seller(view, market, product) {
  const box = h('div');
  view.append(card(h('h2', null, 'Bids'), box));
  const reload = loader(box, async () => [sellerBids(product, await market.productBids(product.id, 100), async (bid) => {
    await market.acceptBid(bid.id);
    await reload(`You accepted ${money(bid.amount, bid.currency)}. The buyer pays next; the order then waits under Orders for you to send it.`);
  }, async (bid) => {
    await market.declineBid(bid.id);
    await reload(`You declined ${money(bid.amount, bid.currency)}. The buyer sees it declined.`);
  })]);
  await reload();
}
