// @ts-check
/**
 * Add money: a funding of one wallet by card or bank through the payment provider, then the result
 * (polled while the provider or the bank still works on it). The form's and the result's states
 * and actions are `AddMoneyForm`'s and `FundingResult`'s (add-money-model.js); this file draws them.
 */
import * as ui from '../ui.js';
import { AddMoneyForm, FundingResult, methodsFor } from './add-money-model.js';

const { h } = ui;

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
  const model = new AddMoneyForm(app.api, {
    returnURL: fundingReturnURL(),
    redirect: (url) => location.assign(url),
    navigate: (path) => app.navigate(path),
    storage: sessionStorage,
    onChange: (state) => drawForm(view, model, state),
  });
  await model.load(query.get('currency'));
}

/**
 * The form (`form` state): wallet, amount, method, card.
 * @param {HTMLElement} view @param {AddMoneyForm} model @param {any} state
 */
function drawForm(view, model, state) {
  const { wallets, cards } = state;
  const currency = ui.field('Wallet', {
    tag: 'select', id: 'money-currency', value: state.currency,
    options: wallets.map((/** @type {any} */ w) => [w.currency, `${w.currency} wallet (${ui.money(w.balance, w.currency)})`]),
  });
  const amount = ui.field('Amount', {
    id: 'money-amount', inputMode: 'decimal', autocomplete: 'off', required: true,
    hint: 'Between 1.00 and 10,000.00 at a time.',
  });
  const method = ui.field('Pay by', { tag: 'select', id: 'money-method', options: methodsFor(state.currency) });
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

  async function start() {
    ui.fieldError(amount, null);
    ui.showError(view, null);
    const value = (/** @type {ui.Field} */ f) => /** @type {HTMLSelectElement} */ (f.input).value;
    try {
      await ui.busy(submit, model.start({ currency: value(currency), amount: amount.input.value, method: value(method), card: value(card) }));
    } catch (error) {
      ui.showRefusal(error, { box: view, fields: { amount } });
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
  ui.setTitle(view, 'Add money');
  const result = new FundingResult(app.api, params.id, { storage: sessionStorage, onChange: (state) => screens[state.kind](state) });
  if (result.state.kind === 'none') {
    view.append(h('p', null, 'There is no payment to check here. ', ui.link('/add-money', 'Add money')));
    return undefined;
  }
  const status = h('p', { role: 'status', id: 'money-status' }, 'Checking your payment…');
  const again = ui.link('/add-money', 'Add money again', { className: 'btn secondary', id: 'money-again' });
  view.append(status, h('div', { className: 'actions' }, ui.link('/', 'Back to your wallet', { className: 'btn primary', id: 'money-home' }), again));
  const screens = {
    /** @param {any} state */
    shown(state) {
      const said = outcome(state.funding);
      ui.setTitle(view, said.title);
      status.textContent = said.text;
      status.dataset.status = state.funding.status;
    },
    /** @param {any} state */
    failed(state) {
      ui.showError(view, state.error);
    },
  };
  result.start();
  return () => result.stop();
}

export const routes = [
  { path: '/add-money', title: 'Add money', auth: true, render: renderAddMoney },
  { path: '/add-money/:id', title: 'Add money', auth: true, render: renderResult },
];
