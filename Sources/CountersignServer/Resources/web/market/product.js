// `/market/products/:id`: the product. A buyer bids or buys now; its seller sees the bids to accept.

import { h, money, showError, busy, setTitle, field, link, details, button, card } from '../ui.js';
import { marketApi } from './api.js';
import { parseEuros, eurosText, countries } from './format.js';
import { remember, seen } from './store.js';
import { bidPath, checkoutPath, productPath } from './paths.js';
import { bidLink, shareField, idFrom, fetchEach, linkList } from './common.js';

export async function renderProduct(view, params, query, app) {
  const market = marketApi(app.api);
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
  remember(me, 'products', product.id);
  setTitle(view, product.title);
  const country = countries.find(([code]) => code === product.shipFromCountry)?.[1] ?? product.shipFromCountry;
  view.append(details([
    ['Asking price', money(product.askingPrice, product.currency)],
    ['Ships from', country],
    ['Delivery', product.deliveryMethods.map((m) => m.name).join(', ')],
    ['Status', h('span', { id: 'product-status' }, product.available ? 'For sale' : 'Reserved or sold')],
  ], { className: 'details market-product' }));

  if (product.sellerId === me) await seller(view, market, product, me, app);
  else buyer(view, market, product, me, app);
  view.append(h('p', null, link('/market', 'Back to the marketplace')));
}

function buyer(view, market, product, me, app) {
  if (!product.available) {
    view.append(h('p', { role: 'status', className: 'notice' }, 'Another buyer holds this product right now. It may come back if they do not pay.'));
    return;
  }
  const amount = field('Your bid (EUR)', { id: 'bid-amount', name: 'amount', required: true, inputMode: 'decimal', value: eurosText(product.askingPrice), autocomplete: 'off' });
  const place = h('button', { type: 'submit', className: 'btn secondary', id: 'bid-submit' }, 'Place bid');
  const bidForm = h('form', { className: 'card market-bid', 'aria-label': 'Bid' }, h('h2', null, 'Make an offer'), amount, place);
  bidForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    showError(bidForm, null);
    const cents = parseEuros(amount.input.value);
    if (cents === null) {
      showError(bidForm, 'Enter your bid in euros, for example 80 or 79.50.');
      amount.input.focus();
      return;
    }
    try {
      const bid = await busy(place, market.bid(product.id, cents));
      remember(me, 'bids', bid.id);
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
      remember(me, 'bids', bid.id);
      app.navigate(checkoutPath(bid));
    } catch (error) {
      showError(buyBox, error);
    }
  }, { id: 'buy-now' });
  const buyBox = card(h('h2', null, 'Buy it now'), h('p', { className: 'hint' }, 'Reserves it for you while you pay.'), buyNow);
  view.append(buyBox, bidForm);
}

async function seller(view, market, product, me, app) {
  const box = card(h('h2', null, 'Bids'));
  view.append(box, shareField('share-product', 'Link to this product', productPath(product.id), 'Send it to buyers: they bid or buy from it.'));
  let bids = null;
  try {
    bids = await market.productBids(product.id);
  } catch (error) {
    showError(box, error);
    return;
  }
  if (bids) {
    box.append(h('ul', { className: 'market-list' }, bids.length ? bids.map((bid) => h('li', null, bidLink(bid),
      bid.status === 'NEW' ? button('Accept', async (event) => {
        try {
          await busy(event.currentTarget, market.acceptBid(bid.id));
          app.navigate(bidPath(bid.id));
        } catch (error) {
          showError(box, error);
        }
      }, { kind: 'secondary', 'aria-label': `Accept the bid of ${money(bid.amount, bid.currency)}` }) : null)) : h('li', { className: 'hint' }, 'No bids yet.')));
    return;
  }
  // This server does not list a product's bids: the seller opens a bid from the link its buyer sent,
  // and finds here those opened before.
  const known = (await fetchEach(seen(me, 'offers'), market.getBid)).filter((bid) => bid.productId === product.id);
  if (known.length) box.append(linkList(known.map((bid) => bidLink(bid)), ''));
  const open = field('Bid link or id', { id: 'open-bid', name: 'bid', autocomplete: 'off', placeholder: 'Paste the link the buyer sent', hint: 'A buyer who bids gets a link to send you.' });
  const form = h('form', { className: 'market-open' }, open, h('button', { type: 'submit', className: 'btn secondary' }, 'Open bid'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = idFrom(open.input.value, 'bids');
    if (id) app.navigate(bidPath(id));
  });
  box.append(form);
}
