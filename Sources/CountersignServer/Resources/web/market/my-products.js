// @ts-check
// `/market/my-products`: the seller's products, each with its bids to accept or decline, and their proceeds.

import { h, money, setTitle, link, details, card } from '../ui.js';
import { productPath, myProductsPath } from './paths.js';
import { marketTabs, joined, askingPrice, loader } from './common.js';
import { sellerBids } from './bids-list.js';

/** For sale, or which bid holds it: the seller knows the bids, so says more than `available`. */
function productState(product, bids) {
  if (product.available) return 'For sale';
  if (product.sold || bids.some((bid) => bid.status === 'COMPLETED')) return 'Sold';
  if (bids.some((bid) => bid.status === 'ACCEPTED')) return 'Reserved for a buyer';
  return 'Reserved or sold';
}

export async function renderMyProducts(view, params, query, app) {
  setTitle(view, 'My products');
  const market = app.api.market;
  const box = h('div', { className: 'market-mine' });
  view.append(marketTabs(myProductsPath),
    h('p', { className: 'actions market-sell-link' }, link('/market/sell', 'Sell something', { className: 'btn primary', id: 'market-sell' })),
    box);
  const reload = loader(box, async () => {
    const [products, proceeds] = await Promise.all([market.myProducts(100), market.proceeds()]);
    const bids = await Promise.all(products.map((product) => market.productBids(product.id, 100)));
    const accept = async (product, bid) => {
      await market.acceptBid(bid.id);
      await reload(`You accepted ${money(bid.amount, bid.currency)} for ${product.title}. The buyer pays next; the order then waits under Orders to be sent.`);
    };
    const decline = async (product, bid) => {
      await market.declineBid(bid.id);
      await reload(`You declined ${money(bid.amount, bid.currency)} for ${product.title}. The buyer sees it declined.`);
    };
    return [
      card(h('h2', null, 'Your proceeds'), details([
        ['Held until buyers confirm receipt', money(proceeds.held, proceeds.currency)],
        ['Payable to you', money(proceeds.payable, proceeds.currency)],
      ], { className: 'details market-proceeds' })),
      products.length ? null : h('p', { className: 'hint market-empty' }, 'You have not listed anything yet.'),
      ...products.map((product, index) => h('section', { className: 'card market-product-card', 'aria-label': product.title, dataset: { product: product.id } },
        h('h2', null, link(productPath(product.id), product.title)),
        h('p', { className: 'market-item-sub' }, joined(askingPrice(product), productState(product, bids[index]))),
        sellerBids(product, bids[index], (bid) => accept(product, bid), (bid) => decline(product, bid)))),
    ];
  });
  await reload();
}
