// @ts-check
/**
 * Add money: a funding of one wallet by card or bank through the payment provider, then the result
 * (polled while the provider or the bank still works on it).
 */
import { newIdempotencyKey } from '../countersign.js';
import * as ui from '../ui.js';

const { h } = ui;
/** Where the funding a redirect is about is kept until the payer comes back (this tab only). */
const PENDING_KEY = 'countersign.funding';
const POLL_MS = 2000;
const POLLS = 30;

/** The methods each currency offers, as the server does. @param {string} currency */
function methodsFor(currency) {
  return currency === 'EUR'
    ? [['card', 'Card'], ['ideal', 'iDEAL'], ['bancontact', 'Bancontact']]
    : [['card', 'Card']];
}

/** Where the provider's page sends the payer back; app.js turns it into the result route. */
export function fundingReturnURL() {
  return `${location.origin}/?funding=return`;
}

/**
 * `/add-money`: amount, wallet, method, card; then off to the provider (or straight to the result).
 * @param {HTMLElement} view @param {any} _params @param {URLSearchParams} query @param {any} app
 */
async function renderAddMoney(view, _params, query, app) {
  ui.setTitle(view, 'Add money');
  const [wallet, cards] = await Promise.all([
    app.api.wallet(),
    app.api.market.cards(),
  ]);
  const currencies = (wallet.wallets || [wallet]).map((/** @type {any} */ w) => w.currency);
  const chosen = currencies.includes(query.get('currency')) ? query.get('currency') : currencies[0];
  const currency = ui.field('Wallet', {
    tag: 'select', id: 'money-currency', value: chosen,
    options: (wallet.wallets || [wallet]).map((/** @type {any} */ w) => [w.currency, `${w.currency} wallet (${ui.money(w.balance, w.currency)})`]),
  });
  const amount = ui.field('Amount', {
    id: 'money-amount', inputMode: 'decimal', autocomplete: 'off', required: true,
    hint: 'Between 1.00 and 10,000.00 at a time.',
  });
  const method = ui.field('Pay by', { tag: 'select', id: 'money-method', options: methodsFor(chosen) });
  const card = ui.field('Card', {
    tag: 'select', id: 'money-card',
    options: cards.map((/** @type {any} */ c) => [c.id, `${c.brand} •••• ${c.last4} (${c.expMonth}/${c.expYear})`]),
  });
  const noCard = h('p', { className: 'muted', id: 'money-no-card' },
    'You have no saved card. Save one when you pay in the marketplace, or pay by iDEAL or Bancontact into your euro wallet.');
  const submit = ui.button('Add money', () => start(), { id: 'money-submit' });
  const form = h('form', { className: 'card', id: 'money-form', on: { submit: (/** @type {Event} */ e) => { e.preventDefault(); start(); } } },
    currency, amount, method, card, noCard, h('div', { className: 'actions' }, submit, ui.link('/', 'Cancel', { className: 'btn secondary' })));
  view.append(form);

  const sync = () => {
    const cur = /** @type {HTMLSelectElement} */ (currency.input).value;
    const select = /** @type {HTMLSelectElement} */ (method.input);
    const keep = select.value;
    select.replaceChildren(...methodsFor(cur).map(([value, text]) => h('option', { value }, text)));
    if (methodsFor(cur).some(([value]) => value === keep)) select.value = keep;
    const byCard = select.value === 'card';
    card.hidden = !byCard || cards.length === 0;
    noCard.hidden = !byCard || cards.length > 0;
    const label = amount.querySelector('label');
    if (label) label.textContent = `Amount (${cur})`;
  };
  currency.input.addEventListener('change', sync);
  method.input.addEventListener('change', sync);
  sync();

  /** One key per set of values: a retry of the same funding never pays twice. */
  let key = { values: '', id: '' };

  async function start() {
    ui.fieldError(amount, null);
    ui.showError(view, null);
    const cur = /** @type {HTMLSelectElement} */ (currency.input).value;
    const minor = ui.parseMoney(amount.input.value);
    if (minor === null || minor <= 0) {
      ui.fieldError(amount, 'Enter an amount, for example 50 or 50.00.');
      amount.input.focus();
      return;
    }
    const how = /** @type {HTMLSelectElement} */ (method.input).value;
    if (how === 'card' && cards.length === 0) {
      ui.showError(view, 'Save a card first, or choose iDEAL or Bancontact for your euro wallet.');
      return;
    }
    /** @type {any} */
    const body = { amount: minor, currency: cur, method: how, returnURL: fundingReturnURL() };
    if (how === 'card') body.paymentMethodId = /** @type {HTMLSelectElement} */ (card.input).value;
    const values = JSON.stringify(body);
    if (key.values !== values) key = { values, id: newIdempotencyKey() };
    try {
      const funding = await ui.busy(submit, app.api.createFunding(body, { idempotencyKey: key.id }));
      if (funding.redirectURL) {
        sessionStorage.setItem(PENDING_KEY, funding.fundingId);
        location.assign(funding.redirectURL);
        return;
      }
      app.navigate(`/add-money/${encodeURIComponent(funding.fundingId)}`);
    } catch (error) {
      ui.showError(view, error);
    }
  }
}

/** What a funding's state says to the payer. @param {any} f */
function outcome(f) {
  const amount = ui.money(f.amount, f.currency);
  switch (f.status) {
    case 'succeeded':
      return { title: 'Money added', text: `${amount} is in your ${f.currency} wallet. Balance: ${ui.money(f.balance, f.currency)}.` };
    case 'failed':
      return { title: 'Money not added', text: `The payment of ${amount} did not go through${f.error?.message ? `: ${f.error.message}` : ''}. Nothing was taken. You can try again, with another card or method.` };
    case 'canceled':
      return { title: 'Money not added', text: `The payment of ${amount} was canceled. Nothing was taken. You can start again.` };
    default:
      return { title: 'Waiting for your payment', text: `The payment of ${amount} is not finished yet: we are waiting for your bank or card. This page updates by itself.` };
  }
}

/**
 * `/add-money/:id` (and `/add-money/return`, back from the provider's page): the result.
 * @param {HTMLElement} view @param {any} params @param {URLSearchParams} _query @param {any} app
 */
async function renderResult(view, params, _query, app) {
  const id = params.id === 'return' ? sessionStorage.getItem(PENDING_KEY) : params.id;
  ui.setTitle(view, 'Add money');
  if (!id) {
    view.append(h('p', null, 'There is no payment to check here. ', ui.link('/add-money', 'Add money')));
    return undefined;
  }
  const status = h('p', { role: 'status', id: 'money-status' }, 'Checking your payment…');
  const again = ui.link('/add-money', 'Add money again', { className: 'btn secondary', id: 'money-again' });
  view.append(status, h('div', { className: 'actions' }, ui.link('/', 'Back to your wallet', { className: 'btn primary', id: 'money-home' }), again));
  let alive = true;
  (async () => {
    for (let poll = 0; alive && poll < POLLS; poll++) {
      try {
        const funding = await app.api.funding(id);
        if (!alive) return;
        const said = outcome(funding);
        ui.setTitle(view, said.title);
        status.textContent = said.text;
        status.dataset.status = funding.status;
        if (funding.status !== 'pending') {
          sessionStorage.removeItem(PENDING_KEY);
          return;
        }
      } catch (error) {
        if (alive) ui.showError(view, error);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return () => {
    alive = false;
  };
}

export const routes = [
  { path: '/add-money', title: 'Add money', auth: true, render: renderAddMoney },
  { path: '/add-money/:id', title: 'Add money', auth: true, render: renderResult },
];
