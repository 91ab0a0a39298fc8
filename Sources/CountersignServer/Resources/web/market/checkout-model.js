// @ts-check
// The marketplace payment screen without its DOM: the JavaScript twin of the SDK's PaymentScreenModel
// (Sources/CountersignClient/Checkout). It loads what the screen needs in the seed's order, keeps the
// buyer's choices with the server's totals for exactly those choices, and takes one payment through
// the order, the provider's redirect and the polls. The view renders `state` on every change.
//
// States (`state.kind`): loading, loadFailed {error}, unavailable {reason}, ready {checkout},
// paying {checkout, step}, paymentFailing {checkout, orderId}, statusUnknown {checkout, orderId, error},
// confirmed {order, product}, withdrawing {checkout}, withdrawn {bid}.
// step: {kind: 'placingOrder' | 'authorizing' | 'startingPayment' | 'redirected' | 'confirming', attempt?}.
// checkout: {profile, product, bid, order, cards, wallet {currency, balance} | null,
//            choices {delivery, addressId, paymentMethod, cardId},
//            totals {kind: 'incomplete' | 'refreshing' | 'ready' | 'failed', value?, previous?, error?}, notice}.
// notice: {kind: 'paymentFailed', failure} | {kind: 'paymentAbandoned'} | {kind: 'error', error}
//         | {kind: 'pinNeeded', orderId, reason: 'noKey' | 'passkeyFailed', error?} (a wallet order the
//           passkey did not pay, and the PIN alone may) | {kind: 'passkeyRequired', error} (nor may the PIN).

import { checkoutState, keepCheckout } from './store.js';
import { paidStatuses } from './format.js';

export const PICKUP = 'pickup';

/** A 300 ms debounce lets a buyer flick through options with one request; 2 s between polls gives
 *  the bank a moment; three more polls after the first, then the payment is flagged failing. */
export const defaultTiming = { debounce: 300, pollInterval: 2000, pollRetries: 3 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const openStatuses = ['NEW', 'PAYMENT_PENDING'];

export class PaymentScreen {
  /**
   * @param {object} market  the marketplace calls (`client.market`, countersign/market.js)
   * @param {object} options returnURL(orderId) → where the provider sends the payer back;
   *   redirect(url) → leaves for the provider's page; sign(options) → the passkey's assertion for a
   *   wallet payment's request options; onChange(state); timing.
   */
  constructor(market, { returnURL, redirect, sign, onChange, timing = defaultTiming }) {
    this.market = market;
    this.sign = sign;
    this.returnURL = returnURL;
    this.redirect = redirect;
    this.onChange = onChange;
    this.timing = timing;
    this.state = { kind: 'loading' };
    this.revision = 0; // raised by every change of choices: a totals answer for an older one is stale
    this.busy = false; // a load, payment or withdrawal runs: the guard against a second Pay
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} the totals request waiting for the debounce */
    this.totalsTimer = undefined;
  }

  /** The screen is gone: no more timers, no more renders. */
  stop() {
    this.stopped = true;
    clearTimeout(this.totalsTimer);
  }

  show(state) {
    this.state = state;
    if (state.checkout) keepCheckout(state.checkout.bid.id, { choices: state.checkout.choices });
    if (!this.stopped) this.onChange?.(state);
    return state;
  }

  // --- Loading (seed steps 1-3) ---------------------------------------------------------------

  /** The buyer (merchant flag, addresses), the product, the bid, its order and the saved cards, one
   *  after the other as the seed orders them; choices restored from the order and this tab. */
  async load(productId, bidId) {
    if (this.busy) return this.state;
    this.busy = true;
    this.revision += 1;
    this.show({ kind: 'loading' });
    try {
      return this.show(await this.loaded(productId, bidId));
    } catch (error) {
      return this.show({ kind: 'loadFailed', error });
    } finally {
      this.busy = false;
      if (this.state.kind === 'ready' && this.state.checkout.totals.kind === 'refreshing') this.scheduleTotals();
    }
  }

  async loaded(productId, bidId) {
    const profile = await this.market.profile();
    this.userId = profile.userId;
    const product = await this.market.product(productId);
    // Never offered, merchant or not; the server refuses it too.
    if (product.sellerId === profile.userId) return { kind: 'unavailable', reason: 'ownProduct' };
    const bid = await this.market.getBid(bidId);
    if (bid.productId !== product.id) return { kind: 'unavailable', reason: 'bidNotForProduct' };
    const order = await this.market.orderOf(bid);
    if (order && paidStatuses.includes(order.status)) return { kind: 'confirmed', order, product };
    if (bid.status !== 'ACCEPTED') return { kind: 'unavailable', reason: 'bidNotAccepted', bid };
    if (order && !openStatuses.includes(order.status)) return { kind: 'unavailable', reason: 'orderClosed', order };
    const cards = await this.market.cards();
    // The wallet in the product's currency; without one (or if it cannot be read) the method is off.
    const wallets = (await this.market.wallet?.().catch(() => null))?.wallets ?? [];
    const wallet = wallets.find((w) => w.currency === product.currency) ?? null;
    const checkout = initialCheckout(profile, product, bid, order, cards, checkoutState(bid.id));
    return { kind: 'ready', checkout: { ...checkout, wallet } };
  }

  // --- Choices --------------------------------------------------------------------------------

  /** Pickup or a shipping method; shipping picks the first address if none is chosen. */
  chooseDelivery(id) {
    return this.change((checkout) => {
      if (!deliveryOptions(checkout).some((option) => option.id === id && !option.disabled)) return false;
      checkout.choices.delivery = id;
      checkout.choices.addressId ??= checkout.profile.addresses[0]?.id ?? null;
      return true;
    });
  }

  chooseAddress(id) {
    return this.change((checkout) => {
      if (!checkout.profile.addresses.some((address) => address.id === id)) return false;
      checkout.choices.addressId = id;
      return true;
    });
  }

  choosePaymentMethod(kind) {
    return this.change((checkout) => {
      if (!paymentOptions(checkout).some((option) => option.kind === kind && !option.disabled)) return false;
      checkout.choices.paymentMethod = kind;
      return true;
    });
  }

  /** Every card costs the same, so the totals stay. */
  chooseCard(id) {
    const checkout = this.editable();
    if (!checkout || !checkout.cards.some((card) => card.id === id)) return false;
    this.show({ kind: 'ready', checkout: { ...checkout, choices: { ...checkout.choices, cardId: id } } });
    return true;
  }

  /** Saves a card with the provider and chooses it for a card payment. Throws the server's refusal. */
  async addCard(card) {
    const saved = await this.market.addCard(card);
    const checkout = this.editable();
    if (!checkout) return saved;
    this.show({ kind: 'ready', checkout: { ...checkout, cards: [...checkout.cards, saved] } });
    this.chooseCard(saved.id);
    this.choosePaymentMethod('card');
    return saved;
  }

  /** Adds a shipping address to the buyer's profile and chooses it. Throws the server's refusal. */
  async addAddress(address) {
    const saved = await this.market.addAddress(address);
    const checkout = this.editable();
    if (!checkout) return saved;
    const profile = { ...checkout.profile, addresses: [...checkout.profile.addresses, saved] };
    this.show({ kind: 'ready', checkout: { ...checkout, profile } });
    this.chooseAddress(saved.id);
    return saved;
  }

  /** The checkout while its choices may change: on the screen, not paying, no payment under way. */
  editable() {
    if (this.state.kind !== 'ready' || this.busy) return null;
    return isEditable(this.state.checkout) ? this.state.checkout : null;
  }

  change(edit) {
    const current = this.editable();
    if (!current) return false;
    const checkout = { ...current, choices: { ...current.choices } };
    if (!edit(checkout)) return false;
    if (sameChoices(checkout.choices, current.choices)) return true;
    checkout.notice = null;
    this.revision += 1;
    checkout.totals = totalsRequest(checkout) ? { kind: 'refreshing', previous: shownTotals(current.totals) } : { kind: 'incomplete' };
    this.show({ kind: 'ready', checkout });
    this.scheduleTotals();
    return true;
  }

  // --- Totals ---------------------------------------------------------------------------------

  /** Fetches the totals of the current choices once they stayed unchanged for the debounce: N quick
   *  changes send one request, and an answer for older choices is dropped. */
  scheduleTotals() {
    clearTimeout(this.totalsTimer);
    const request = this.state.checkout && totalsRequest(this.state.checkout);
    if (!request) return;
    const revision = this.revision;
    this.totalsTimer = setTimeout(async () => {
      let totals;
      try {
        totals = { kind: 'ready', value: await this.market.totals(request) };
      } catch (error) {
        totals = { kind: 'failed', error };
      }
      if (revision !== this.revision || this.state.kind !== 'ready') return;
      this.show({ kind: 'ready', checkout: { ...this.state.checkout, totals } });
    }, this.timing.debounce);
  }

  // --- Paying ---------------------------------------------------------------------------------

  /** Pays with the current choices: creates or reuses the order, starts the payment, leaves for the
   *  provider's page when it asks. From paymentFailing or statusUnknown it resumes the payment under
   *  way (never a second one). Pressed again while running, it does nothing. */
  async pay() {
    const checkout = this.payable();
    if (this.busy || !checkout) return this.state;
    this.busy = true;
    try {
      return this.show(await this.payment(checkout, totalsRequest(checkout)));
    } finally {
      this.busy = false;
    }
  }

  payable() {
    const { kind, checkout } = this.state;
    return ['ready', 'paymentFailing', 'statusUnknown'].includes(kind) && canPay(checkout) ? checkout : null;
  }

  async payment(checkout, request) {
    let paying = { ...checkout, notice: null };
    this.show({ kind: 'paying', checkout: paying, step: { kind: 'placingOrder' } });
    let order;
    try {
      order = await this.market.placeOrder(request);
    } catch (error) {
      // Nothing was sent to the provider: back to the screen, nothing taken.
      return back(paying, { kind: 'error', error });
    }
    paying = { ...paying, order };
    keepCheckout(paying.bid.id, { orderId: order.id });
    if (paidStatuses.includes(order.status)) return { kind: 'confirmed', order, product: paying.product };
    if (request.paymentMethod === 'wallet') return this.payFromWallet(paying, order);
    this.show({ kind: 'paying', checkout: paying, step: { kind: 'startingPayment' } });
    let started;
    try {
      const paymentMethodId = request.paymentMethod === 'card' ? paying.choices.cardId : null;
      started = await this.market.pay(order.id, { paymentMethodId, returnURL: this.returnURL(order.id) });
    } catch (error) {
      // No answer, or it finished meanwhile: the server knows where the payment stands.
      if (error?.status >= 500 || error?.status === undefined || error.code === 'order_paid') {
        return this.poll(paying, order.id, 1 + this.timing.pollRetries, null);
      }
      return back(paying, { kind: 'error', error });
    }
    return this.follow(started, paying);
  }

  /** A wallet order: the passkey signs its total and seller (Secure Payment Confirmation where the
   *  browser offers it), then the server pays it at once. A refusal (too little in the wallet, a
   *  limit) returns to the screen with nothing taken; where the passkey cannot finish (no key, the
   *  gesture dismissed or refused) the PIN is offered, if the server said it may pay this. */
  async payFromWallet(paying, order) {
    this.show({ kind: 'paying', checkout: paying, step: { kind: 'authorizing' } });
    let paid;
    try {
      paid = await this.market.payFromWallet({ ...order, sellerId: paying.product.sellerId }, { sign: this.sign });
    } catch (error) {
      if (error?.code === 'order_paid') return this.poll(paying, order.id, 1, null);
      return back(paying, walletFallback(error, order.id));
    }
    return this.walletPaid(paying, order, paid);
  }

  /** Pays the wallet order the passkey did not (notice `pinNeeded`) with the account PIN. A wrong
   *  PIN keeps the PIN form, saying so; nothing is taken until the server pays. */
  async payWithPin(pin) {
    const { kind, checkout } = this.state;
    const notice = checkout?.notice;
    if (this.busy || kind !== 'ready' || notice?.kind !== 'pinNeeded') return this.state;
    this.busy = true;
    try {
      const paying = { ...checkout, notice: null };
      this.show({ kind: 'paying', checkout: paying, step: { kind: 'authorizing' } });
      let paid;
      try {
        paid = await this.market.payWithPin(notice.orderId, pin);
      } catch (error) {
        if (error?.code === 'order_paid') return this.show(await this.poll(paying, notice.orderId, 1, null));
        if (error?.code === 'strong_authentication_required') return this.show(back(paying, { kind: 'passkeyRequired', error }));
        const again = error?.status === 401 || error?.code === 'invalid_pin';
        return this.show(back(paying, again ? { ...notice, error } : { kind: 'error', error }));
      }
      return this.show(await this.walletPaid(paying, checkout.order ?? { totals: paying.totals.value }, paid));
    } finally {
      this.busy = false;
    }
  }

  async walletPaid(paying, order, paid) {
    if (paying.wallet && paidStatuses.includes(paid.orderStatus) && order?.totals) {
      paying = { ...paying, wallet: { ...paying.wallet, balance: paying.wallet.balance - order.totals.total } };
    }
    return this.follow(paid, paying);
  }

  async follow(response, checkout) {
    const current = withStatus(checkout, response.orderStatus);
    const done = settled(response, current);
    if (done) return done;
    if (!response.redirectURL) return this.poll(current, response.orderId, 1 + this.timing.pollRetries, null);
    // The page is left for the provider's; the payer comes back through the return URL, or with the
    // back button (abandoned): either way the kept state tells the screen what happened.
    keepCheckout(current.bid.id, { orderId: response.orderId, redirected: true });
    this.show({ kind: 'paying', checkout: current, step: { kind: 'redirected', url: response.redirectURL } });
    this.redirect(response.redirectURL);
    return this.state;
  }

  /** Back through the return URL: the provider has answered; ask the server, three more tries. */
  async returned(orderId) {
    return this.resume(orderId, 1 + this.timing.pollRetries, null);
  }

  /** Back without the return URL (the back button, a closed tab): one look in case it went through
   *  before the payer walked away; otherwise the payment waits for them and Pay resumes it. */
  async abandoned(orderId) {
    return this.resume(orderId, 1, { kind: 'paymentAbandoned' });
  }

  /** Whether the payer left this checkout for the provider's page and has not been seen back. */
  get redirectedOrder() {
    const kept = this.state.checkout && checkoutState(this.state.checkout.bid.id);
    return kept?.redirected ? kept.orderId : null;
  }

  async resume(orderId, attempts, stillPending) {
    const checkout = this.state.checkout;
    if (this.busy || !checkout) return this.state;
    this.busy = true;
    keepCheckout(checkout.bid.id, { redirected: false });
    try {
      return this.show(await this.poll(checkout, orderId, attempts, stillPending));
    } finally {
      this.busy = false;
    }
  }

  /** From paymentFailing or statusUnknown: asks the server once more. */
  async checkAgain() {
    const { kind, checkout, orderId } = this.state;
    if (this.busy || !['paymentFailing', 'statusUnknown'].includes(kind)) return this.state;
    this.busy = true;
    try {
      return this.show(await this.poll(checkout, orderId, 1, null));
    } finally {
      this.busy = false;
    }
  }

  /** Asks up to `attempts` times, pollInterval apart, until the payment is settled; still pending at
   *  the end: back to the screen with `stillPending`, or, when null, paymentFailing. */
  async poll(checkout, orderId, attempts, stillPending) {
    let current = checkout;
    for (let attempt = 1; attempt <= Math.max(1, attempts); attempt += 1) {
      if (attempt > 1) await sleep(this.timing.pollInterval);
      if (this.stopped) break;
      this.show({ kind: 'paying', checkout: current, step: { kind: 'confirming', attempt, of: attempts } });
      let response;
      try {
        response = await this.market.payment(orderId);
      } catch (error) {
        return { kind: 'statusUnknown', checkout: current, orderId, error };
      }
      current = withStatus(current, response.orderStatus, orderId);
      const done = settled(response, current);
      if (done) return done;
    }
    if (stillPending) return back(current, stillPending);
    return { kind: 'paymentFailing', checkout: current, orderId };
  }

  // --- Giving up ------------------------------------------------------------------------------

  /** A payment left waiting is stopped so the buyer can choose again: the order is NEW again. */
  async cancelPayment() {
    const { kind, checkout } = this.state;
    if (this.busy || !['ready', 'paymentFailing', 'statusUnknown'].includes(kind)) return this.state;
    if (checkout.order?.status !== 'PAYMENT_PENDING') return this.state;
    this.busy = true;
    try {
      const answer = await this.market.cancelPayment(checkout.order.id);
      const next = withStatus(checkout, answer.orderStatus);
      if (paidStatuses.includes(answer.orderStatus)) return this.show({ kind: 'confirmed', order: next.order, product: checkout.product });
      return this.reopen(next, null);
    } catch (error) {
      return this.reopen(checkout, { kind: 'error', error }, error.code === 'order_paid');
    } finally {
      this.busy = false;
    }
  }

  /** Buy-now only: the buyer gives up. The bid is withdrawn; the server cancels its order and any
   *  payment left waiting, so the product can be bid on again. */
  async abandon() {
    const checkout = this.state.checkout;
    if (this.busy || !checkout || !checkout.bid.buyNow) return this.state;
    this.busy = true;
    this.show({ kind: 'withdrawing', checkout });
    try {
      const bid = await this.market.withdrawBid(checkout.bid.id);
      keepCheckout(checkout.bid.id, null);
      return this.show({ kind: 'withdrawn', bid });
    } catch (error) {
      return this.reopen(checkout, { kind: 'error', error }, error.code === 'order_paid');
    } finally {
      this.busy = false;
    }
  }

  /** The screen again with `notice`; if the payment may have gone through meanwhile, its confirmation. */
  async reopen(checkout, notice, maybePaid = false) {
    if (maybePaid) {
      const order = await this.market.getBid(checkout.bid.id).then((bid) => this.market.orderOf(bid)).catch(() => null);
      if (order && paidStatuses.includes(order.status)) return this.show({ kind: 'confirmed', order, product: checkout.product });
    }
    const state = this.show(back(checkout, notice));
    // Totals that were being fetched are fetched again: an answer that came while the screen was away was dropped.
    if (checkout.totals.kind === 'refreshing') this.scheduleTotals();
    return state;
  }
}

// --- Derived from a checkout ------------------------------------------------------------------

/** The screen for `bid`: the choices of its payment under way; else those this tab kept (the buyer's
 *  latest), else its order's; else pickup when offered (or the first shipping method, given an
 *  address), the first address and card, the payment method left to the buyer. */
function initialCheckout(profile, product, bid, order, cards, kept) {
  const pending = order?.status === 'PAYMENT_PENDING';
  const keptChoices = (!pending && kept?.choices) || (order ? { delivery: order.delivery, addressId: order.addressId, paymentMethod: order.paymentMethod } : {});
  const checkout = { profile, product, bid, order, cards, notice: null, totals: { kind: 'incomplete' }, choices: {} };
  const hasAddress = (id) => profile.addresses.some((address) => address.id === id);
  const hasCard = (id) => cards.some((card) => card.id === id);
  const enabled = deliveryOptions(checkout).filter((option) => !option.disabled);
  const canDeliver = (id) => enabled.some((option) => option.id === id);
  const keptCard = kept?.choices?.cardId;
  checkout.choices = {
    delivery: pending || canDeliver(keptChoices.delivery) ? keptChoices.delivery : enabled[0]?.id ?? null,
    addressId: pending || hasAddress(keptChoices.addressId) ? keptChoices.addressId ?? null : profile.addresses[0]?.id ?? null,
    paymentMethod: keptChoices.paymentMethod === 'card' && cards.length === 0 ? null : keptChoices.paymentMethod ?? null,
    cardId: hasCard(keptCard) ? keptCard : cards[0]?.id ?? null,
  };
  const sameAsOrder = order && order.delivery === checkout.choices.delivery && order.paymentMethod === checkout.choices.paymentMethod
    && (order.delivery === PICKUP || order.addressId === checkout.choices.addressId);
  if (sameAsOrder) checkout.totals = { kind: 'ready', value: order.totals };
  else if (totalsRequest(checkout)) checkout.totals = { kind: 'refreshing', previous: null };
  return checkout;
}

/** Pickup whenever the product offers it; shipping methods disabled while the buyer has no address. */
export function deliveryOptions(checkout) {
  return checkout.product.deliveryMethods.map((method) => ({
    id: method.id,
    name: method.name,
    disabled: method.id !== PICKUP && checkout.profile.addresses.length === 0 ? 'noAddress' : null,
  }));
}

/** Card (disabled until a card is saved), iDEAL, Bancontact, and the wallet in the product's currency
 *  (disabled while it is empty or there is none; the server refuses too little before any gesture). */
export function paymentOptions(checkout) {
  const disabled = (kind) => {
    if (kind === 'card' && checkout.cards.length === 0) return 'noSavedCard';
    if (kind === 'wallet' && !(checkout.wallet?.balance > 0)) return 'emptyWallet';
    return null;
  };
  return ['card', 'ideal', 'bancontact', 'wallet'].map((kind) => ({ kind, disabled: disabled(kind) }));
}

/** Whether the choices may change: not while the order's payment is under way with the provider. */
export const isEditable = (checkout) => !checkout.order || checkout.order.status === 'NEW';

/** The request the totals and the order are made from; null while a choice is missing. */
export function totalsRequest(checkout) {
  const { delivery, addressId, paymentMethod } = checkout.choices;
  if (!delivery || !paymentMethod) return null;
  if (delivery === PICKUP) return { bidId: checkout.bid.id, delivery, paymentMethod };
  if (!addressId) return null;
  return { bidId: checkout.bid.id, delivery, addressId, paymentMethod };
}

/** Pay needs every choice (a card for a card payment) and the totals of exactly these choices, so the
 *  buyer never pays an amount they have not seen. */
export function canPay(checkout) {
  if (!totalsRequest(checkout) || checkout.totals.kind !== 'ready') return false;
  return checkout.choices.paymentMethod !== 'card' || Boolean(checkout.choices.cardId);
}

/** The totals on screen, if any. */
export function shownTotals(totals) {
  if (totals.kind === 'ready') return totals.value;
  if (totals.kind === 'refreshing') return totals.previous;
  return null;
}

const sameChoices = (a, b) => ['delivery', 'addressId', 'paymentMethod', 'cardId'].every((key) => a[key] === b[key]);

function withStatus(checkout, status, orderId) {
  const order = checkout.order ?? (orderId ? { id: orderId } : null);
  return order ? { ...checkout, order: { ...order, status } } : checkout;
}

/** The screen again, choices kept, with `notice`. */
const back = (checkout, notice) => ({ kind: 'ready', checkout: { ...checkout, notice } });

/** What the screen offers after a wallet payment the passkey did not finish: the PIN where the
 *  server allows it (no key yet; the gesture dismissed, refused or not verified), the passkey alone
 *  where it does not, else the error itself (too little money, a limit, the lock). */
export function walletFallback(error, orderId) {
  if (error?.code === 'no_registered_credential') return { kind: 'pinNeeded', orderId, reason: 'noKey' };
  if (error?.code === 'strong_authentication_required') return { kind: 'passkeyRequired', error };
  if (error?.stage === 'sign' || error?.stage === 'verify') {
    return error.pinAllowed ? { kind: 'pinNeeded', orderId, reason: 'passkeyFailed', error } : { kind: 'passkeyRequired', error };
  }
  return { kind: 'error', error };
}

/** The state a settled payment ends in; null while it is pending. */
function settled(response, checkout) {
  switch (response.orderStatus) {
    case 'PAID':
    case 'SHIPPED':
    case 'COMPLETED':
      return { kind: 'confirmed', order: checkout.order, product: checkout.product };
    case 'NEW':
      // A failed attempt returns the order to NEW with the reason; the buyer may choose again.
      return back(checkout, { kind: 'paymentFailed', failure: response.error ?? { code: 'payment_failed', message: 'The payment did not go through.' } });
    case 'CANCELED':
    case 'EXPIRED':
      return { kind: 'unavailable', reason: 'orderClosed', order: checkout.order };
    default:
      return null;
  }
}
