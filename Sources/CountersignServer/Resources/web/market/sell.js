// @ts-check
// `/market/sell`: list a product (EUR), with pickup and/or shipping methods.

import { h, showError, busy, setTitle, field, link } from '../ui.js';
import { parseEuros, countries, shippingMethods } from './format.js';
import { productPath } from './paths.js';

export async function renderSell(view, params, query, app) {
  setTitle(view, 'Sell something');
  const market = app.api.market;
  const title = field('Title', { id: 'sell-title', name: 'title', required: true, maxLength: 200, autocomplete: 'off', placeholder: 'Oak chair' });
  const price = field('Asking price (EUR)', { id: 'sell-price', name: 'price', required: true, inputMode: 'decimal', autocomplete: 'off', placeholder: '100.00', hint: 'For example 100 or 49.95.' });
  const from = field('Ships from', { id: 'sell-ship-from', tag: 'select', name: 'shipFrom', options: countries, value: 'NL' });
  const check = (name, text, checked) => {
    const input = h('input', { type: 'checkbox', name, id: `sell-${name}`, checked });
    return { input, label: h('label', { className: 'market-option', for: input.id }, input, h('span', null, text)) };
  };
  const pickup = check('pickup', 'Pickup (the buyer collects it)', true);
  const methods = shippingMethods.map(([id, name]) => ({ id, ...check(id, name, id === 'postnl_standard') }));
  const merchant = check('merchant', 'I sell as a business (merchant account)', false);
  const submit = h('button', { type: 'submit', className: 'btn primary', id: 'sell-submit' }, 'List it');
  const form = h('form', { className: 'market-sell' },
    title, price, from,
    h('fieldset', { className: 'card' }, h('legend', null, 'Delivery'), pickup.label, methods.map((m) => m.label)),
    merchant.label, submit);
  view.append(form);

  market.profile().then((profile) => { merchant.input.checked = profile.isMerchant; }).catch(() => {});

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    showError(form, null);
    const askingPrice = parseEuros(price.input.value);
    if (!title.input.value.trim()) return fail(form, title.input, 'Give the product a title.');
    if (askingPrice === null) return fail(form, price.input, 'Enter the asking price in euros, for example 100 or 49.95.');
    const shipping = methods.filter((m) => m.input.checked).map((m) => m.id);
    if (!pickup.input.checked && shipping.length === 0) return fail(form, pickup.input, 'Choose pickup, a shipping method, or both.');
    try {
      const product = await busy(submit, (async () => {
        const profile = await market.profile();
        if (profile.isMerchant !== merchant.input.checked) await market.setMerchant(merchant.input.checked);
        return market.createProduct({ title: title.input.value.trim(), askingPrice, shipFromCountry: from.input.value, pickup: pickup.input.checked, shippingMethods: shipping });
      })());
      app.navigate(productPath(product.id));
    } catch (error) {
      showError(form, error);
    }
    return undefined;
  });
  view.append(h('p', null, link('/market/my-products', 'My products')));
}

/** A visible refusal of the form, with focus on the field to fix. */
function fail(form, input, message) {
  showError(form, message);
  input.setAttribute('aria-invalid', 'true');
  input.focus();
}
