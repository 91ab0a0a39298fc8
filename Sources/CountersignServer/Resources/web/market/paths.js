// @ts-check
// The app paths of the marketplace's screens (see routes.js).

const id = (value) => encodeURIComponent(String(value));

/** The marketplace's lists: the shop window, the seller's products, the buyer's bids, the orders. */
export const shopPath = '/market';
export const myProductsPath = '/market/my-products';
export const myBidsPath = '/market/my-bids';
export const ordersPath = '/market/orders';

export const productPath = (productId) => `/market/products/${id(productId)}`;
export const bidPath = (bidId) => `/market/bids/${id(bidId)}`;
export const orderPath = (orderId) => `/market/orders/${id(orderId)}`;
/** The payment screen of an accepted bid. */
export const checkoutPath = (bid) => `/market/products/${id(bid.productId)}/checkout/${id(bid.id)}`;
/** Where the provider's page sends the payer back; app.js turns it into the order's return route. */
export const returnURL = (orderId) => `${location.origin}/?checkout=${id(orderId)}`;
