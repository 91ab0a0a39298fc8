// The marketplace calls of the API (seed 001), over the app's Countersign client.
// Every call answers parsed JSON or throws the client's CountersignError {status, code, message}.

const segment = (id) => encodeURIComponent(String(id));

/** Whether `error` says the server has no such endpoint (an older or API-only server), not a refusal. */
export function isMissingEndpoint(error) {
  return (error?.status === 404 && error.code === 'not_found') || error?.status === 405;
}

/** The marketplace endpoints, for `api` (the app's client: `api.request(method, path, {body, query})`). */
export function marketApi(api) {
  const get = (path, query) => api.request('GET', path, query ? { query } : {});
  // A POST without a body still sends {}: the API takes JSON bodies only.
  const post = (path, body = {}) => api.request('POST', path, { body });
  // A list endpoint this server may not offer yet: null instead of an error, so a screen can fall back.
  const optional = async (call) => {
    try {
      return await call();
    } catch (error) {
      if (isMissingEndpoint(error)) return null;
      throw error;
    }
  };

  return {
    /** The buyer as the payment screen needs them: userId, name, isMerchant, addresses. */
    profile: () => get('/user/profile'),
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
    withdrawBid: (id) => post(`/bids/${segment(id)}/withdraw`),
    /** The buyer's order for the bid, or null when it has none yet. */
    bidOrder: async (bidId) => {
      try {
        return await get(`/bids/${segment(bidId)}/order`);
      } catch (error) {
        if (error?.status === 404 && error.code === 'order_not_found') return null;
        throw error;
      }
    },

    /** {bidId, delivery, addressId?, paymentMethod} → {subtotal, shipping, paymentFee, total, currency, lines}. */
    totals: (request) => post('/checkout/totals', request),
    /** The same body as the totals: creates the bid's order or returns the one it has. */
    placeOrder: (request) => post('/orders', request),
    order: (id) => get(`/orders/${segment(id)}`),
    /** {paymentMethodId?, returnURL?} → {orderId, orderStatus, paymentStatus?, redirectURL?, error?}. */
    pay: (orderId, body) => post(`/orders/${segment(orderId)}/pay`, body),
    /** The provider's current word on the payment, applied to the order: what the app polls. */
    payment: (orderId) => get(`/orders/${segment(orderId)}/payment`),
    cancelPayment: (orderId) => post(`/orders/${segment(orderId)}/payment/cancel`),
    ship: (orderId) => post(`/orders/${segment(orderId)}/ship`),
    complete: (orderId) => post(`/orders/${segment(orderId)}/complete`),
    proceeds: () => get('/user/proceeds'),

    cards: async () => (await get('/payment-methods/cards')).cards,
    /** {number, expMonth, expYear} → {id, brand, last4, expMonth, expYear}. */
    addCard: (card) => post('/payment-methods/cards', card),

    // Lists the server may not offer (null then): the products for sale, a seller's own, the bids on
    // a product (its seller), the caller's bids and orders.
    products: () => optional(async () => (await get('/products')).products),
    myProducts: () => optional(async () => (await get('/products', { seller: 'me' })).products),
    productBids: (productId) => optional(async () => (await get(`/products/${segment(productId)}/bids`)).bids),
    myBids: () => optional(async () => (await get('/user/bids')).bids),
    myOrders: () => optional(async () => (await get('/user/orders')).orders),
  };
}
