// `/market`: what is for sale, the user's listings, bids and orders, and the seller's proceeds.

import { h, money, showError, setTitle, field, link, details, card } from '../ui.js';
import { marketApi } from './api.js';
import { seen } from './store.js';
import { productPath } from './paths.js';
import { linkList, productLink, bidLink, orderLink, fetchEach, idFrom } from './common.js';

export async function renderHome(view, params, query, app) {
  setTitle(view, 'Marketplace');
  const market = marketApi(app.api);
  view.append(h('p', { className: 'actions' }, link('/market/sell', 'Sell something', { className: 'btn primary' })));

  const open = field('Product link or id', { name: 'product', autocomplete: 'off', placeholder: 'Paste a product link' });
  const openForm = h('form', { className: 'card market-open', 'aria-label': 'Open a product' }, open,
    h('button', { type: 'submit', className: 'btn secondary' }, 'Open'));
  openForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = idFrom(open.input.value, 'products');
    if (id) app.navigate(productPath(id));
  });

  const sections = h('div', { className: 'market-sections', 'aria-busy': 'true' }, h('p', { role: 'status' }, 'Loading…'));
  view.append(openForm, sections);
  try {
    const profile = await market.profile();
    const me = profile.userId;
    const [forSale, listed, bids, orders, proceeds] = await Promise.all([
      market.products(),
      market.myProducts().then((list) => list?.filter((p) => p.sellerId === me) ?? null),
      market.myBids(),
      market.myOrders(),
      market.proceeds(),
    ]);
    const mine = listed ?? (await fetchEach(seen(me, 'products'), market.product)).filter((p) => p.sellerId === me);
    const myBids = bids ?? await fetchEach(seen(me, 'bids'), market.getBid);
    // Bids on the user's listings: from the lists when the server has them, else those opened here.
    const offers = (await fetchEach(seen(me, 'offers'), market.getBid)).filter((bid) => bid.buyerId !== me);
    const myOrders = orders ?? await fetchEach(seen(me, 'orders'), market.order);
    const titles = new Map([...(forSale ?? []), ...mine].map((p) => [p.id, p.title]));
    const parts = [
      forSale ? card(h('h2', null, 'For sale'), linkList(forSale.filter((p) => p.sellerId !== me).map(productLink), 'Nothing for sale right now.')) : null,
      card(h('h2', null, 'Your listings'), linkList(mine.map(productLink), 'You have not listed anything yet.')),
      offers.length ? card(h('h2', null, 'Offers on your listings'), linkList(offers.map((bid) => bidLink(bid, titles.get(bid.productId))), '')) : null,
      card(h('h2', null, 'Your bids'), linkList(myBids.map((bid) => bidLink(bid, titles.get(bid.productId))), 'No bids yet.')),
      card(h('h2', null, 'Orders'), linkList(myOrders.map((order) => orderLink(order, titles.get(order.productId))), 'No orders yet.')),
      card(h('h2', null, 'Your proceeds'), details([
        ['Held until buyers confirm receipt', money(proceeds.held, proceeds.currency)],
        ['Payable to you', money(proceeds.payable, proceeds.currency)],
      ])),
    ];
    sections.replaceChildren(...parts.filter(Boolean));
    sections.setAttribute('aria-busy', 'false');
  } catch (error) {
    sections.replaceChildren();
    sections.setAttribute('aria-busy', 'false');
    showError(sections, error);
  }
}
