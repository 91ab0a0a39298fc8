// @ts-check
// The marketplace calls of the API, over the app's Countersign client; a call the client has
// already (the profile, the wallet, refunds) is the client's, so its path is spelled once.
// Every call answers parsed JSON or throws the client's CountersignError {status, code, message}.
import { newIdempotencyKey } from '../countersign.js';

const segment = (id) => encodeURIComponent(String(id));

/** A random Idempotency-Key, for a refund and its retries. */
export const refundKey = newIdempotencyKey;

/** The marketplace endpoints, for `api` (the app's client: `api.request(method, path, {body, query})`). */
export function marketApi(api) {
  // The client leaves out a query's undefined values (a list's unset limit).
  const get = (path, query) => api.request('GET', path, query ? { query } : {});
  // A POST without a body still sends {}: the API takes JSON bodies only.
  const post = (path, body = {}) => api.request('POST', path, { body });

  return {
    /** The buyer as the payment screen needs them: userId, name, isMerchant, addresses. */
    profile: () => api.profile(),
    setMerchant: (isMerchant) => api.request('PUT', '/user/merchant', { body: { isMerchant } }),
    /** {name, line1, city, postalCode, country} → the address with its id. */
    addAddress: (address) => post('/user/addresses', address),

    /** {title, askingPrice, shipFromCountry, pickup, shippingMethods} → the product. */
    createProduct: (product) => post('/products', product),
    product: (id) => get(`/products/${segment(id)}`),
    bid: (productId, amount) => post(`/products/${segment(productId)}/bids`, { amount }),
    /** A bid at the asking price, accepted at once; withdraw it if the buyer gives up. */
    buyNow: (productId) => post(`/products/${segment(productId)}/buy-now`),

    getBid: (id) => get(`/bids/${segment(id)}`),
    acceptBid: (id) => post(`/bids/${segment(id)}/accept`),
    /** The seller says no to a NEW bid; its bidder sees it declined. */
    declineBid: (id) => post(`/bids/${segment(id)}/decline`),
    withdrawBid: (id) => post(`/bids/${segment(id)}/withdraw`),
    /** The bid's order (the bid names it once it has one), or null when it has none yet. */
    orderOf: async (bid) => (bid.orderId ? get(`/orders/${segment(bid.orderId)}`) : null),

    /** {bidId, delivery, addressId?, paymentMethod} → {subtotal, shipping, paymentFee, total, currency, lines}. */
    totals: (request) => post('/checkout/totals', request),
    /** The same body as the totals: creates the bid's order or returns the one it has. */
    placeOrder: (request) => post('/orders', request),
    order: (id) => get(`/orders/${segment(id)}`),
    /** {paymentMethodId?, returnURL?} → {orderId, orderStatus, paymentStatus?, redirectURL?, error?}. */
    pay: (orderId, body) => post(`/orders/${segment(orderId)}/pay`, body),
    /** The buyer's wallets: `wallets` holds one {currency, balance} per currency. */
    wallet: () => api.wallet(),
    /** A `wallet` order: options → check → sign (`sign(options)`) → verify → pay with the token. */
    payFromWallet: (order, sign) => api.payOrderFromWallet(order, { sign }),
    /** A `wallet` order paid with the account PIN (within its allowance). */
    payWithPin: (orderId, pin) => api.payOrderWithPin(orderId, pin),
    /** The provider's current word on the payment, applied to the order: what the app polls. */
    payment: (orderId) => get(`/orders/${segment(orderId)}/payment`),
    cancelPayment: (orderId) => post(`/orders/${segment(orderId)}/payment/cancel`),
    ship: (orderId) => post(`/orders/${segment(orderId)}/ship`),
    complete: (orderId) => post(`/orders/${segment(orderId)}/complete`),
    /**
     * The seller gives back {amount (cents), reason} of a paid order, until the buyer confirms
     * receipt. Keep `idempotencyKey` for retries of the same refund: never a second one.
     */
    refund: (orderId, body, idempotencyKey) => api.refundOrder(orderId, body, { idempotencyKey }),
    /** The order's refunds, oldest first: {id, amount, currency, reason, status, requestedBy, failureMessage?, createdAt}. */
    refunds: (orderId) => api.orderRefunds(orderId),
    proceeds: () => get('/user/proceeds'),

    cards: async () => (await get('/payment-methods/cards')).cards,
    /** {number, expMonth, expYear} → {id, brand, last4, expMonth, expYear}. */
    addCard: (card) => post('/payment-methods/cards', card),

    // The lists, newest first; `limit` 1 to 100 (the server's default is 20).
    /** The shop window: every product, each with whether it is still `available`. */
    products: async (limit) => (await get('/products', { limit })).products,
    /** The caller's own products. */
    myProducts: async (limit) => (await get('/products', { seller: 'me', limit })).products,
    /** The bids on a product, for its seller (404 product_not_found for anyone else). */
    productBids: async (productId, limit) => (await get(`/products/${segment(productId)}/bids`, { limit })).bids,
    /** The caller's bids. */
    myBids: async (limit) => (await get('/user/bids', { limit })).bids,
    /** The orders the caller buys or sells; an order does not say which (compare with products and bids). */
    myOrders: async (limit) => (await get('/user/orders', { limit })).orders,
  };
}
