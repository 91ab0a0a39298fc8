// @ts-check
// The marketplace's screens, for the app shell's hash router.
// Each render(view, params, query, app) fills `view` and may return a cleanup function.

import { renderHome } from './home.js';
import { renderMyProducts } from './my-products.js';
import { renderMyBids } from './my-bids.js';
import { renderOrders } from './orders.js';
import { renderSell } from './sell.js';
import { renderProduct } from './product.js';
import { renderBid } from './bid.js';
import { renderCheckout, renderCheckoutReturn } from './checkout.js';
import { renderOrder } from './order.js';

// The marketplace's own styles, linked once (style-src 'self' allows a stylesheet link added here).
if (!document.querySelector('link[href$="market/market.css"]')) {
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: 'market/market.css' }));
}

export const routes = [
  { path: '/market', title: 'Marketplace', auth: true, render: renderHome },
  { path: '/market/my-products', title: 'My products', auth: true, render: renderMyProducts },
  { path: '/market/my-bids', title: 'My bids', auth: true, render: renderMyBids },
  { path: '/market/orders', title: 'Orders', auth: true, render: renderOrders },
  { path: '/market/sell', title: 'Sell something', auth: true, render: renderSell },
  { path: '/market/products/:id', title: 'Product', auth: true, render: renderProduct },
  { path: '/market/bids/:id', title: 'Bid', auth: true, render: renderBid },
  // The marketplace payment screen, for an accepted bid on the product.
  { path: '/market/products/:productId/checkout/:bidId', title: 'Payment', auth: true, render: renderCheckout },
  { path: '/market/orders/:id', title: 'Order', auth: true, render: renderOrder },
  // Back from the provider's page: app.js turns /?checkout=<orderId>&payment_intent=… into this.
  { path: '/market/orders/:id/return', title: 'Payment', auth: true, render: renderCheckoutReturn },
];

