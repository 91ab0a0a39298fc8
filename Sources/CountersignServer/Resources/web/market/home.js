// @ts-check
// `/market`: the shop window, the products other people have for sale, newest first.

import { h, setTitle, link } from '../ui.js';
import { countries } from './format.js';
import { productPath, shopPath } from './paths.js';
import { marketTabs, listItem, itemList, joined, askingPrice, loader } from './common.js';

export async function renderHome(view, params, query, app) {
  setTitle(view, 'Marketplace');
  const market = app.api.market;
  const list = h('section', { className: 'market-shop', 'aria-label': 'For sale' });
  view.append(marketTabs(shopPath),
    h('p', { className: 'actions market-sell-link' }, link('/market/sell', 'Sell something', { className: 'btn primary', id: 'market-sell' })),
    list);
  await loader(list, async () => {
    const [profile, products] = await Promise.all([market.profile(), market.products(100)]);
    const forSale = products.filter((product) => product.available && product.sellerId !== profile.userId);
    return [itemList(forSale.map((product) => listItem({
      path: productPath(product.id),
      title: product.title,
      lines: [joined(askingPrice(product), `from ${countryName(product.shipFromCountry)}`),
        product.deliveryMethods.map((method) => method.name).join(', ')],
      dataset: { product: product.id },
    })), 'Nothing for sale right now. Come back later, or sell something yourself.', { id: 'market-for-sale' })];
  })();
}

const countryName = (code) => countries.find(([known]) => known === code)?.[1] ?? code;
