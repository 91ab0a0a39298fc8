// @ts-check
// The marketplace payment screen: the view of PaymentScreen (checkout-model.js). The form is built once
// and updated in place on every state, so focus and half-typed fields survive the totals' refreshes.

import { h, replace, money, showError, describeError, busy, setTitle, field, button, link, details, pinField, fieldError } from '../ui.js';
import { PaymentScreen, PICKUP, deliveryOptions, paymentOptions, isEditable, canPay, shownTotals } from './checkout-model.js';
import { methodNames, orderStatusText, paymentFailureText, countries, bidStateText } from './format.js';
import { checkoutPath, orderPath, productPath, bidPath, ordersPath, returnURL } from './paths.js';
import { keepCheckout } from './store.js';
import { signPayment } from '../screens/sign.js';

/** `/market/products/:productId/checkout/:bidId`: the payment screen of an accepted bid. */
export function renderCheckout(view, params, query, app) {
  return mount(view, app, params.productId, params.bidId, null);
}

/** `/market/orders/:id/return`: back from the provider's page. The order names its bid; the screen
 *  loads as usual, then asks the server where the payment stands (three more tries). */
export async function renderCheckoutReturn(view, params, query, app) {
  setTitle(view, 'Checking your payment');
  const status = h('p', { role: 'status' }, 'Checking your payment with the server…');
  view.append(status);
  let order;
  try {
    order = await app.api.market.order(params.id);
  } catch (error) {
    status.remove();
    showError(view, error);
    view.append(h('p', null, link('/market', 'Back to the marketplace')));
    return undefined;
  }
  // A reload lands on the payment screen, not on a second return.
  history.replaceState(history.state, '', `#${checkoutPath(order)}`);
  return mount(view, app, order.productId, order.bidId, order.id);
}

function mount(view, app, productId, bidId, returnedOrderId) {
  const screen = new CheckoutView(view, () => model.load(productId, bidId));
  const model = new PaymentScreen(app.api.market, {
    returnURL,
    redirect: (url) => location.assign(url),
    sign: async (options) => (await signPayment(options, options.securePaymentConfirmation, { label: 'Order total' })).assertion,
    onChange: (state) => screen.render(state),
  });
  screen.model = model;
  // Back from the provider's page with the back button, restored from the page cache: the payment
  // was abandoned (or finished without coming back): one look, then the screen with the choices.
  const onPageShow = (event) => {
    const { kind, step, checkout } = model.state;
    if (event.persisted && kind === 'paying' && step.kind === 'redirected') model.abandoned(checkout.order.id);
  };
  window.addEventListener('pageshow', onPageShow);
  (async () => {
    const state = await model.load(productId, bidId);
    if (state.kind === 'confirmed') return;
    if (returnedOrderId && state.kind === 'ready') await model.returned(returnedOrderId);
    else if (model.redirectedOrder) await model.abandoned(model.redirectedOrder);
  })();
  return () => {
    model.stop();
    window.removeEventListener('pageshow', onPageShow);
  };
}

/** "Wallet (€12.50)": the wallet shows what it holds; the other methods their names. */
const methodLabel = (kind, checkout) => (kind === 'wallet' && checkout.wallet
  ? `${methodNames.wallet} (${money(checkout.wallet.balance, checkout.wallet.currency)})` : methodNames[kind]);

/** "visa" → "Visa"; the provider names brands in lower case. */
const brandName = (brand) => (brand ? brand[0].toUpperCase() + brand.slice(1) : 'Card');

const stepText = {
  placingOrder: () => 'Placing your order…',
  authorizing: () => 'Confirm the payment with your passkey…',
  startingPayment: () => 'Starting the payment…',
  redirected: () => 'Taking you to the payment page…',
  confirming: (step) => `Checking the payment (${step.attempt} of ${step.of})…`,
};

class CheckoutView {
  constructor(view, reload) {
    this.view = view;
    this.reload = reload;
    this.form = null; // the screen's parts, built on the first ready state
    /** @type {PaymentScreen | null} the model it renders, set once the model exists */
    this.model = null;
    /** @type {HTMLDetailsElement | null} the "Add an address" disclosure, in the form */
    this.addressDetails = null;
    /** @type {HTMLDetailsElement | null} the "Add a card" disclosure, in the form */
    this.cardDetails = null;
  }

  /** The model; the view's buttons and radios exist only once it is set. */
  get screen() {
    if (!this.model) throw new Error('The payment view has no model yet.');
    return this.model;
  }

  /** The form's parts, which every state with a checkout has (render builds them first). */
  get parts() {
    if (!this.form) throw new Error('The payment form is not built.');
    return this.form;
  }

  render(state) {
    if (state.checkout) {
      if (!this.form) this.build(state.checkout);
      this.update(state);
    } else {
      this.form = null;
      this.final(state);
    }
  }

  // --- States without the form ------------------------------------------------------------------

  final(state) {
    const view = this.view;
    replace(view);
    switch (state.kind) {
      case 'loading':
        setTitle(view, 'Payment');
        view.append(h('p', { role: 'status', className: 'market-wait' }, 'Loading your details, the product and your bid…'));
        break;
      case 'loadFailed':
        setTitle(view, 'Payment');
        view.append(h('div', { className: 'actions' }, button('Try again', () => this.reload())));
        showError(view, state.error);
        break;
      case 'unavailable':
        this.unavailable(state);
        break;
      case 'confirmed':
        this.confirmed(state.order, state.product);
        break;
      case 'withdrawn':
        setTitle(view, 'Buy now withdrawn');
        view.append(
          h('p', { role: 'status' }, 'Nothing was paid. Your buy-now is withdrawn and the product is for sale again.'),
          details([['Bid', 'Withdrawn'], ['Amount', money(state.bid.amount, state.bid.currency)]], { className: 'details market-withdrawn' }),
          h('p', { className: 'actions' }, link(productPath(state.bid.productId), 'Back to the product', { id: 'checkout-product' }), ' ', link('/market', 'Marketplace')));
        break;
      default:
        break;
    }
  }

  unavailable({ reason, bid, order }) {
    const view = this.view;
    setTitle(view, 'Payment not possible');
    const text = {
      ownProduct: 'This is your own product: nobody buys their own.',
      bidNotForProduct: 'This bid is for another product.',
      bidNotAccepted: `Only an accepted bid can be paid. This one: ${bid ? bidStateText(bid).toLowerCase() : 'not accepted'}.`,
      orderClosed: `This order is ${order ? (orderStatusText[order.status] ?? order.status).toLowerCase() : 'closed'}: it cannot be paid any more.`,
    }[reason];
    view.append(h('p', { role: 'alert', className: 'error' }, text),
      h('p', { className: 'actions' }, bid ? link(bidPath(bid.id), 'See the bid') : null, ' ', link('/market', 'Marketplace')));
  }

  confirmed(order, product) {
    const view = this.view;
    keepCheckout(order.bidId, null);
    setTitle(view, 'Payment confirmed');
    const totals = order.totals;
    view.append(
      h('p', { role: 'status', className: 'ok-box' }, 'Paid. The seller can now send it or hand it over.'),
      details([
        ['Order', h('code', null, order.id)],
        ['Status', orderStatusText[order.status] ?? order.status],
        order.delivery ? ['Delivery', product?.deliveryMethods.find((m) => m.id === order.delivery)?.name ?? order.delivery] : null,
        order.paymentMethod ? ['Paid with', methodNames[order.paymentMethod]] : null,
        totals ? ['Total', money(totals.total, totals.currency)] : null,
      ], { className: 'details market-confirmation' }),
      h('p', { className: 'actions' }, link(orderPath(order.id), 'See the order', { className: 'btn primary', id: 'checkout-order' }), ' ', link(ordersPath, 'All your orders')));
  }

  // --- The form -----------------------------------------------------------------------------------

  build(checkout) {
    const view = this.view;
    replace(view);
    setTitle(view, 'Payment');
    const { product, bid, profile } = checkout;
    const parts = {};
    parts.summary = h('section', { className: 'card market-summary', 'aria-label': 'What you buy' },
      h('p', { className: 'market-title' }, product.title),
      h('p', null, bid.buyNow ? 'Buy now: ' : 'Your accepted bid: ', h('strong', null, money(bid.amount, bid.currency))),
      h('p', { className: 'hint' }, `Buying as ${profile.name}`, profile.isMerchant ? ' · merchant account' : ''));
    parts.notice = h('div', { className: 'market-notice' });

    // Delivery: pickup or a shipping method; shipping needs an address.
    parts.delivery = this.radios('delivery', deliveryOptions(checkout).map((o) => [o.id, o.id === PICKUP ? 'Pickup (free)' : o.name]),
      (id) => this.screen.chooseDelivery(id));
    parts.deliveryHint = h('p', { className: 'hint' });
    parts.deliverySet = h('fieldset', { className: 'card' }, h('legend', null, 'Delivery'), parts.delivery.group, parts.deliveryHint);

    // Address: the buyer's addresses, and a new one.
    parts.addresses = h('div', { className: 'market-options' });
    parts.addressHint = h('p', { className: 'hint' });
    parts.addressSet = h('fieldset', { className: 'card' }, h('legend', null, 'Address'), parts.addresses, parts.addressHint, this.addressForm());

    // Method: card (with saved cards and a new one), iDEAL, Bancontact, the wallet with its balance.
    parts.method = this.radios('method', paymentOptions(checkout).map((o) => [o.kind, methodLabel(o.kind, checkout)]),
      (kind) => this.screen.choosePaymentMethod(kind));
    parts.cards = h('div', { className: 'market-options' });
    parts.cardHint = h('p', { className: 'hint' });
    parts.methodSet = h('fieldset', { className: 'card' }, h('legend', null, 'Payment method'), parts.method.group,
      h('fieldset', { className: 'market-cards' }, h('legend', null, 'Card'), parts.cards, parts.cardHint, this.cardForm()));

    parts.totals = h('section', { className: 'card market-totals', 'aria-live': 'polite', 'aria-label': 'Totals' });
    parts.status = h('p', { role: 'status', className: 'market-status' });
    parts.pay = button('Pay', () => this.screen.pay(), { className: 'btn primary market-pay', id: 'checkout-pay' });
    parts.checkAgain = button('Check again', () => this.screen.checkAgain(), { kind: 'secondary', id: 'checkout-check-again' });
    parts.cancelPayment = button('Pay another way', () => this.screen.cancelPayment(), { kind: 'secondary', id: 'checkout-cancel-payment' });
    parts.withdraw = button('Don’t buy it (withdraw)', () => this.screen.abandon(), { kind: 'danger', id: 'checkout-withdraw' });
    parts.actions = h('div', { className: 'actions market-actions' }, parts.pay, parts.checkAgain, parts.cancelPayment, parts.withdraw);
    view.append(parts.summary, parts.notice, parts.deliverySet, parts.addressSet, parts.methodSet, parts.totals, parts.status, parts.actions);
    this.form = parts;
    this.addressIds = null;
    this.cardIds = null;
  }

  /** A radio group with one labelled radio per [value, text]; `choose(value)` on change. */
  radios(name, options, choose) {
    const inputs = new Map();
    const group = h('div', { className: 'market-options' }, options.map(([value, text]) => {
      const input = h('input', { type: 'radio', name, value, id: `${name}-${value}`, on: { change: () => choose(value) } });
      inputs.set(value, input);
      return h('label', { className: 'market-option', for: input.id }, input, h('span', null, text));
    }));
    return { group, inputs };
  }

  addressForm() {
    const fields = {
      name: field('Name', { id: 'address-name', autocomplete: 'name', required: true, maxLength: 200, placeholder: 'Ada Jansen' }),
      line1: field('Street and number', { id: 'address-line1', autocomplete: 'address-line1', required: true, maxLength: 200, placeholder: 'Keizersgracht 1' }),
      postalCode: field('Postal code', { id: 'address-postal-code', autocomplete: 'postal-code', required: true, maxLength: 20, placeholder: '1015 CJ' }),
      city: field('City', { id: 'address-city', autocomplete: 'address-level2', required: true, maxLength: 200, placeholder: 'Amsterdam' }),
      country: field('Country', { id: 'address-country', tag: 'select', options: countries, value: 'NL', autocomplete: 'country' }),
    };
    const form = h('form', { className: 'market-add' });
    const save = h('button', { type: 'submit', className: 'btn secondary', id: 'address-save' }, 'Save address');
    form.append(...Object.values(fields), save);
    const wrapper = h('details', { className: 'market-more' }, h('summary', { id: 'add-address' }, 'Add an address'), form);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showError(form, null);
      const address = Object.fromEntries(Object.entries(fields).map(([key, f]) => [key, f.input.value.trim()]));
      try {
        const saved = await busy(save, this.screen.addAddress(address));
        form.reset();
        fields.country.input.value = 'NL';
        wrapper.open = false;
        document.getElementById(`address-${saved.id}`)?.focus();
      } catch (error) {
        showError(form, error);
      }
    });
    this.addressDetails = wrapper;
    return wrapper;
  }

  cardForm() {
    const number = field('Card number', { id: 'card-number', inputMode: 'numeric', autocomplete: 'cc-number', required: true, maxLength: 23, placeholder: '4242 4242 4242 4242',
      hint: 'Test cards: 4242 4242 4242 4242 pays at once; 4000 0027 6000 3184 asks for 3-D Secure; 4000 0000 0000 0002 is declined.' });
    const month = field('Expiry month', { id: 'card-exp-month', type: 'number', min: 1, max: 12, required: true, placeholder: '12', autocomplete: 'cc-exp-month', inputMode: 'numeric' });
    const year = field('Expiry year', { id: 'card-exp-year', type: 'number', min: 2000, max: 2100, required: true, placeholder: '2030', autocomplete: 'cc-exp-year', inputMode: 'numeric' });
    const save = h('button', { type: 'submit', className: 'btn secondary', id: 'card-save' }, 'Save card');
    const form = h('form', { className: 'market-add' }, number, h('div', { className: 'market-row' }, month, year), save);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showError(form, null);
      const card = { number: number.input.value.trim(), expMonth: Number(month.input.value), expYear: Number(year.input.value) };
      try {
        const saved = await busy(save, this.screen.addCard(card));
        form.reset();
        wrapper.open = false;
        document.getElementById(`card-${saved.id}`)?.focus();
      } catch (error) {
        showError(form, error);
      }
    });
    const wrapper = h('details', { className: 'market-more' }, h('summary', { id: 'add-card' }, 'Add a card'), form);
    this.cardDetails = wrapper;
    return wrapper;
  }

  update(state) {
    const parts = this.parts;
    const { checkout } = state;
    const frozen = state.kind !== 'ready' || !isEditable(checkout);
    const { choices } = checkout;

    for (const option of deliveryOptions(checkout)) {
      const input = parts.delivery.inputs.get(option.id);
      input.checked = choices.delivery === option.id;
      input.disabled = frozen || Boolean(option.disabled);
    }
    parts.deliveryHint.textContent = checkout.profile.addresses.length === 0 && checkout.product.deliveryMethods.some((m) => m.id !== PICKUP)
      ? 'Add an address to have it shipped.' : '';

    this.updateAddresses(checkout, frozen);
    for (const option of paymentOptions(checkout)) {
      const input = parts.method.inputs.get(option.kind);
      input.checked = choices.paymentMethod === option.kind;
      input.disabled = frozen || Boolean(option.disabled);
    }
    this.updateCards(checkout, frozen);
    this.updateTotals(checkout.totals);
    this.updateNotice(state);

    const total = checkout.totals.kind === 'ready' ? checkout.totals.value : null;
    const pending = checkout.order?.status === 'PAYMENT_PENDING';
    parts.pay.textContent = `${pending ? 'Continue paying' : 'Pay'}${total ? ` ${money(total.total, total.currency)}` : ''}`;
    parts.pay.disabled = !['ready', 'paymentFailing', 'statusUnknown'].includes(state.kind) || !canPay(checkout);
    parts.checkAgain.hidden = !['paymentFailing', 'statusUnknown'].includes(state.kind);
    parts.cancelPayment.hidden = !pending || !['ready', 'paymentFailing', 'statusUnknown'].includes(state.kind);
    parts.withdraw.hidden = !checkout.bid.buyNow || state.kind === 'paying';
    parts.withdraw.disabled = state.kind === 'withdrawing';
    parts.status.textContent = state.kind === 'paying' ? stepText[state.step.kind](state.step)
      : state.kind === 'withdrawing' ? 'Withdrawing your buy-now…' : '';
    this.view.classList.toggle('market-busy', state.kind === 'paying' || state.kind === 'withdrawing');
  }

  updateAddresses(checkout, frozen) {
    const parts = this.parts;
    const ids = checkout.profile.addresses.map((a) => a.id).join(',');
    if (ids !== this.addressIds) {
      this.addressIds = ids;
      replace(parts.addresses, checkout.profile.addresses.map((address) => {
        const input = h('input', { type: 'radio', name: 'address', value: address.id, id: `address-${address.id}`,
          on: { change: () => this.screen.chooseAddress(address.id) } });
        return h('label', { className: 'market-option', for: input.id }, input,
          h('span', null, `${address.name}, ${address.line1}, ${address.postalCode} ${address.city}, ${address.country}`));
      }));
    }
    for (const input of parts.addresses.querySelectorAll('input')) {
      input.checked = checkout.choices.addressId === input.value;
      input.disabled = frozen;
    }
    const pickup = checkout.choices.delivery === PICKUP;
    parts.addressHint.textContent = checkout.profile.addresses.length === 0 ? 'No address yet.' : pickup ? 'Not needed for pickup.' : '';
    if (this.addressDetails) this.addressDetails.hidden = frozen;
  }

  updateCards(checkout, frozen) {
    const parts = this.parts;
    const ids = checkout.cards.map((c) => c.id).join(',');
    if (ids !== this.cardIds) {
      this.cardIds = ids;
      replace(parts.cards, checkout.cards.map((card) => {
        const input = h('input', { type: 'radio', name: 'card', value: card.id, id: `card-${card.id}`,
          // A card chosen is a card payment: its radio is shown chosen only when the method is card.
          on: { change: () => this.screen.chooseCard(card.id) && this.screen.choosePaymentMethod('card') } });
        const expiry = `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
        return h('label', { className: 'market-option', for: input.id }, input, h('span', null, `${brandName(card.brand)} •••• ${card.last4}, expires ${expiry}`));
      }));
    }
    for (const input of parts.cards.querySelectorAll('input')) {
      // Only the chosen method looks chosen: a saved card is not, while the buyer pays another way.
      input.checked = checkout.choices.paymentMethod === 'card' && checkout.choices.cardId === input.value;
      input.disabled = frozen;
    }
    parts.cardHint.textContent = checkout.cards.length === 0 ? 'No saved card yet: add one to pay by card.' : '';
    if (this.cardDetails) this.cardDetails.hidden = frozen;
  }

  updateTotals(totals) {
    const box = this.parts.totals;
    const shown = shownTotals(totals);
    box.setAttribute('aria-busy', totals.kind === 'refreshing' ? 'true' : 'false');
    const rows = shown ? [
      ...shown.lines.map((line) => h('div', { className: `market-line market-${line.kind}` }, h('dt', null, line.name), h('dd', null, money(line.amount, shown.currency)))),
      h('div', { className: 'market-line market-total' }, h('dt', null, 'Total'), h('dd', { 'data-total': shown.total }, money(shown.total, shown.currency))),
    ] : [];
    replace(box, h('h2', null, 'Total'),
      totals.kind === 'incomplete' ? h('p', { className: 'hint' }, 'Choose delivery and a way to pay to see the total.') : null,
      totals.kind === 'failed' ? h('p', { role: 'alert', className: 'error' }, totals.error ? describeError(totals.error) : 'The totals could not be fetched.') : null,
      rows.length ? h('dl', { className: 'market-lines' }, rows) : null,
      totals.kind === 'refreshing' ? h('p', { className: 'hint' }, 'Updating…') : null);
  }

  updateNotice(state) {
    const box = this.parts.notice;
    const { notice, order } = state.checkout;
    const before = box.textContent;
    this.fillNotice(box, state, notice, order);
    // Brought back to the screen with news (a failed or abandoned payment): show it, wherever the page was.
    if (box.textContent && box.textContent !== before) box.scrollIntoView({ block: 'start' });
  }

  /** The wallet order the passkey did not pay, paid with the account PIN instead. */
  pinForm(notice, checkout) {
    const total = checkout.order?.totals ?? (checkout.totals.kind === 'ready' ? checkout.totals.value : null);
    const pin = pinField('Account PIN', { id: 'wallet-pin', autocomplete: 'current-password' });
    const pay = h('button', { type: 'submit', className: 'btn primary', id: 'wallet-pay-pin' },
      `Pay${total ? ` ${money(total.total, total.currency)}` : ''} with PIN`);
    const form = h('form', { className: 'market-add', id: 'wallet-pin-form' }, pin, pay);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = pin.input.value.trim();
      if (!/^[0-9]{4,6}$/.test(value)) {
        fieldError(pin, 'Enter your 4 to 6 digit PIN.');
        pin.input.focus();
        return;
      }
      fieldError(pin, null);
      this.screen.payWithPin(value);
    });
    const why = notice.reason === 'noKey'
      ? 'You have no passkey on this account yet. Pay from your wallet with your account PIN, or add a passkey under Keys.'
      : 'Your passkey did not confirm the payment, and nothing was taken. Pay with your account PIN instead, or press Pay to try the passkey again.';
    const box = h('div', { className: 'notice', id: 'wallet-pin-needed' }, h('p', { role: 'status' }, why), form);
    // A wrong PIN (or another refusal of it) is said above the form; a dismissed passkey needs no more words.
    if (notice.error && !notice.error.stage) showError(box, notice.error);
    return box;
  }

  fillNotice(box, state, notice, order) {
    // The PIN form stays as it is while its notice does: what is typed in it survives other updates.
    if (notice?.kind === 'pinNeeded' && state.kind === 'ready' && notice === this.pinNotice && box.firstChild) return;
    this.pinNotice = notice?.kind === 'pinNeeded' && state.kind === 'ready' ? notice : null;
    replace(box);
    if (this.pinNotice) {
      box.append(this.pinForm(this.pinNotice, state.checkout));
      return;
    }
    if (notice?.kind === 'passkeyRequired') {
      box.append(h('div', { role: 'alert', className: 'error', id: 'wallet-passkey-required' },
        h('p', null, 'This payment needs your passkey, and nothing was paid. Your PIN alone pays only small amounts, '
          + 'and only a few times between passkey payments.'),
        h('p', null, 'Press Pay to confirm it with your passkey, or add a passkey under Keys, or choose another way to pay.')));
      return;
    }
    if (state.kind === 'paymentFailing') {
      box.append(h('div', { role: 'alert', className: 'warn-box' },
        h('p', null, h('strong', null, 'Payment failing.')),
        h('p', null, 'Your bank has not confirmed the payment yet. It may still go through, and it is never taken twice: check again in a moment, continue it, or pay another way.')));
    } else if (state.kind === 'statusUnknown') {
      box.append(h('div', { role: 'alert', className: 'error' },
        h('p', null, 'The server could not be reached, so we do not know yet whether the payment went through. Check again.')));
    } else if (notice?.kind === 'paymentFailed') {
      box.append(h('p', { role: 'alert', className: 'error' }, paymentFailureText(notice.failure)));
    } else if (notice?.kind === 'paymentAbandoned') {
      box.append(h('p', { role: 'status', className: 'notice' },
        'You left the payment page before finishing. Your choices are kept: continue paying, or pay another way.'));
    } else if (notice?.kind === 'error') {
      showError(box, notice.error);
    } else if (order?.status === 'PAYMENT_PENDING' && state.kind === 'ready') {
      box.append(h('p', { role: 'status', className: 'notice' }, 'A payment is waiting for you to finish it: continue paying, or pay another way.'));
    }
  }
}
