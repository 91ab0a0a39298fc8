// @ts-check
/**
 * The marketplace's calls, as `client.market` (`new Countersign().market`): products, bids,
 * checkout totals, orders and their payment, refunds, cards. A call the client has already (the
 * profile, the wallet) is the client's, so each path is spelled once. Every call answers parsed
 * JSON or throws a CountersignError {status, code, message}.
 * @module
 */
import { checkChallenge } from './canonical.js';
import { CountersignError } from './errors.js';
import { newIdempotencyKey } from './idempotency.js';
import { getAssertion } from './webauthn.js';

/** @typedef {import('./client.js').Countersign} Countersign */

/** @param {unknown} id */
const segment = (id) => encodeURIComponent(String(id));

/** The marketplace endpoints, over a client (whose `request` they go through). */
export class Marketplace {
  /** @param {Countersign} client */
  constructor(client) {
    this.client = client;
  }

  /**
   * A GET; the client leaves out a query's undefined values (a list's unset limit).
   * @param {string} path @param {Record<string, any>} [query]
   */
  get(path, query) {
    return this.client.request('GET', path, query ? { query } : {});
  }

  /**
   * A POST; without a body it still sends {}: the API takes JSON bodies only.
   * @param {string} path @param {any} [body]
   */
  post(path, body = {}) {
    return this.client.request('POST', path, { body });
  }

  // --- the buyer and seller -------------------------------------------------------------------

  /** The buyer as the payment screen needs them: userId, name, isMerchant, addresses. */
  profile() {
    return this.client.profile();
  }

  /** @param {boolean} isMerchant */
  setMerchant(isMerchant) {
    return this.client.request('PUT', '/user/merchant', { body: { isMerchant } });
  }

  /** {name, line1, city, postalCode, country} → the address with its id. @param {object} address */
  addAddress(address) {
    return this.post('/user/addresses', address);
  }

  /** The buyer's wallets: `wallets` holds one {currency, balance} per currency. */
  wallet() {
    return this.client.wallet();
  }

  /** The seller's proceeds. */
  proceeds() {
    return this.get('/user/proceeds');
  }

  // --- products and bids ----------------------------------------------------------------------

  /** {title, askingPrice, shipFromCountry, pickup, shippingMethods} → the product. @param {object} product */
  createProduct(product) {
    return this.post('/products', product);
  }

  /** @param {string} id */
  product(id) {
    return this.get(`/products/${segment(id)}`);
  }

  /** @param {string} productId @param {number} amount */
  bid(productId, amount) {
    return this.post(`/products/${segment(productId)}/bids`, { amount });
  }

  /** A bid at the asking price, accepted at once; withdraw it if the buyer gives up. @param {string} productId */
  buyNow(productId) {
    return this.post(`/products/${segment(productId)}/buy-now`);
  }

  /** @param {string} id */
  getBid(id) {
    return this.get(`/bids/${segment(id)}`);
  }

  /** @param {string} id */
  acceptBid(id) {
    return this.post(`/bids/${segment(id)}/accept`);
  }

  /** The seller says no to a NEW bid; its bidder sees it declined. @param {string} id */
  declineBid(id) {
    return this.post(`/bids/${segment(id)}/decline`);
  }

  /** @param {string} id */
  withdrawBid(id) {
    return this.post(`/bids/${segment(id)}/withdraw`);
  }

  // --- checkout and orders --------------------------------------------------------------------

  /**
   * The bid's order (the bid names it once it has one), or null when it has none yet.
   * @param {{orderId?: string | null}} bid
   */
  async orderOf(bid) {
    return bid.orderId ? this.get(`/orders/${segment(bid.orderId)}`) : null;
  }

  /**
   * {bidId, delivery, addressId?, paymentMethod} → {subtotal, shipping, paymentFee, total, currency, lines}.
   * @param {object} request
   */
  totals(request) {
    return this.post('/checkout/totals', request);
  }

  /** The same body as the totals: creates the bid's order or returns the one it has. @param {object} request */
  placeOrder(request) {
    return this.post('/orders', request);
  }

  /** @param {string} id */
  order(id) {
    return this.get(`/orders/${segment(id)}`);
  }

  /**
   * {paymentMethodId?, returnURL?} → {orderId, orderStatus, paymentStatus?, redirectURL?, error?}.
   * @param {string} orderId @param {object} [body]
   */
  pay(orderId, body) {
    return this.post(`/orders/${segment(orderId)}/pay`, body);
  }

  /**
   * Pays a `wallet` order from the buyer's wallet with the passkey: the order's options (the
   * challenge covers its total and seller), checked here against the order shown before anything
   * is signed, signed, verified, then the order paid with the token.
   * @param {{id: string, sellerId?: string, totals: {total: number, currency: string}}} order
   * @param {{signal?: AbortSignal, sign?: (options: any) => Promise<object>}} opts `sign` replaces
   *   `navigator.credentials.get` (e.g. Secure Payment Confirmation with `options.securePaymentConfirmation`)
   */
  async payFromWallet(order, { signal, sign } = {}) {
    const options = await this.post(`/orders/${segment(order.id)}/pay/options`);
    const t = options.transaction || {};
    if (t.kind !== 'marketplace_order' || t.productCode !== order.id || t.amount !== order.totals.total
      || t.currency !== order.totals.currency || (order.sellerId && t.supplierSlug !== order.sellerId)) {
      throw new CountersignError(0, 'challenge_mismatch_local', 'The server described another payment; nothing was signed.');
    }
    await checkChallenge(options.nonce, t, options.challenge);
    // A failure to sign or verify says so (`stage`), with whether the options let the PIN pay instead.
    const failed = (/** @type {any} */ error, /** @type {string} */ stage) => Object.assign(
      error instanceof Error ? error : new Error(String(error)), { stage, pinAllowed: options.pinAllowed !== false });
    let assertion;
    try {
      assertion = sign ? await sign(options) : await getAssertion(options, { signal });
    } catch (error) {
      throw failed(error, 'sign');
    }
    let verified;
    try {
      verified = await this.client.verifyAssertion(assertion);
    } catch (error) {
      throw failed(error, 'verify');
    }
    if (!verified.verificationToken) throw failed(new CountersignError(401, verified.code || 'not_verified', verified.message || 'The passkey was not accepted.'), 'verify');
    return this.post(`/orders/${segment(order.id)}/pay`, { verificationToken: verified.verificationToken });
  }

  /** A `wallet` order paid with the account PIN (within its allowance). @param {string} orderId @param {string} pin */
  payWithPin(orderId, pin) {
    return this.post(`/orders/${segment(orderId)}/pay`, { pin });
  }

  /** The provider's current word on the payment, applied to the order: what the app polls. @param {string} orderId */
  payment(orderId) {
    return this.get(`/orders/${segment(orderId)}/payment`);
  }

  /** @param {string} orderId */
  cancelPayment(orderId) {
    return this.post(`/orders/${segment(orderId)}/payment/cancel`);
  }

  /** @param {string} orderId */
  ship(orderId) {
    return this.post(`/orders/${segment(orderId)}/ship`);
  }

  /** @param {string} orderId */
  complete(orderId) {
    return this.post(`/orders/${segment(orderId)}/complete`);
  }

  /**
   * The seller gives back {amount (cents), reason} of a paid order, until the buyer confirms
   * receipt. Keep `idempotencyKey` for retries of the same refund: never a second one.
   * @param {string} orderId @param {{amount: number, reason: string}} body @param {string} [idempotencyKey]
   */
  refund(orderId, body, idempotencyKey) {
    return this.client.request('POST', `/orders/${segment(orderId)}/refunds`,
      { body, idempotencyKey: idempotencyKey ?? newIdempotencyKey() });
  }

  /**
   * The order's refunds, oldest first: {id, amount, currency, reason, status, requestedBy, failureMessage?, createdAt}.
   * @param {string} orderId
   */
  async refunds(orderId) {
    return (await this.get(`/orders/${segment(orderId)}/refunds`)).refunds;
  }

  // --- cards ----------------------------------------------------------------------------------

  /** The saved cards: {id, brand, last4, expMonth, expYear}. */
  async cards() {
    return (await this.get('/payment-methods/cards')).cards;
  }

  /** {number, expMonth, expYear} → {id, brand, last4, expMonth, expYear}. @param {object} card */
  addCard(card) {
    return this.post('/payment-methods/cards', card);
  }

  // --- lists, newest first; `limit` 1 to 100 (the server's default is 20) -----------------------

  /** The shop window: every product, each with whether it is still `available`. @param {number} [limit] */
  async products(limit) {
    return (await this.get('/products', { limit })).products;
  }

  /** The caller's own products. @param {number} [limit] */
  async myProducts(limit) {
    return (await this.get('/products', { seller: 'me', limit })).products;
  }

  /** The bids on a product, for its seller (404 product_not_found for anyone else). @param {string} productId @param {number} [limit] */
  async productBids(productId, limit) {
    return (await this.get(`/products/${segment(productId)}/bids`, { limit })).bids;
  }

  /** The caller's bids. @param {number} [limit] */
  async myBids(limit) {
    return (await this.get('/user/bids', { limit })).bids;
  }

  /** The orders the caller buys or sells; an order does not say which (compare with products and bids). @param {number} [limit] */
  async myOrders(limit) {
    return (await this.get('/user/orders', { limit })).orders;
  }
}
