// @ts-check
/**
 * Limits: the account's spending limits per currency (per payment, per day, per 30 days, the most
 * the wallet may hold), with what is used and what remains. Lowering one applies at once; raising
 * one (up to the tier's) is confirmed with a passkey and applies after the server's delay, shown as
 * pending until then. The limits and their changes are `LimitsModel`'s (limits-model.js); this file
 * draws them.
 */
import { getAssertion } from '../countersign.js';
import * as ui from '../ui.js';
import { LimitsModel } from './limits-model.js';

const { h } = ui;

/** Words for each kind of limit. @type {Record<string, string>} */
export const KIND_WORDS = {
  per_payment: 'One payment',
  daily: 'In 24 hours',
  rolling_30_days: 'In 30 days',
  max_balance: 'Wallet balance',
};

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderLimits(view, _params, _query, app) {
  ui.setTitle(view, 'Limits');
  const intro = h('p', { className: 'muted', id: 'limits-intro' });
  const body = h('div', { id: 'limits-body', 'aria-live': 'polite' });
  view.append(intro, body);

  const model = new LimitsModel(app.api, {
    assert: (options) => getAssertion(options),
    onChange: (state) => screens[state.kind](state),
  });

  const screens = {
    loading() {},
    /** @param {any} state */
    failed(state) {
      ui.showError(body, state.error);
    },
    /** @param {any} state */
    shown(state) {
      const limits = state.limits;
      const hours = Math.round(limits.raiseDelaySeconds / 3600);
      intro.textContent = `Your tier: ${limits.tier}. Lowering a limit applies at once. Raising one, up to your tier's, `
        + `needs your passkey and applies ${hours} hours later, so nobody holding only your session can raise it.`;
      body.replaceChildren(...limits.currencies.map((/** @type {any} */ c) => currencyCard(c, state.editing)));
      if (state.notice) ui.showNotice(body, state.notice);
      if (state.editing) {
        const input = /** @type {HTMLElement | null} */ (body.querySelector(`#limit-${state.editing.currency}-${state.editing.kind}-amount`));
        input?.focus();
      }
    },
  };

  /** @param {any} c @param {{currency: string, kind: string} | null} editing */
  function currencyCard(c, editing) {
    return h('section', { className: 'card', 'aria-labelledby': `limits-${c.currency}-h`, dataset: { currency: c.currency } },
      h('h2', { id: `limits-${c.currency}-h` }, c.currency === 'EUR' ? 'Euro' : c.currency === 'NGN' ? 'Naira' : c.currency),
      h('ul', { className: 'list' }, ...c.limits.map((/** @type {any} */ l) =>
        (editing && editing.currency === c.currency && editing.kind === l.kind ? editRow(c.currency, l) : limitRow(c.currency, l)))));
  }

  /**
   * @param {string} currency
   * @param {any} l
   */
  function limitRow(currency, l) {
    const id = `limit-${currency}-${l.kind}`;
    const none = 'No limit';
    const value = l.limit == null ? none : ui.money(l.limit, currency);
    const sub = [];
    if (l.limit != null && l.kind !== 'per_payment') {
      sub.push(`${l.kind === 'max_balance' ? 'Holding' : 'Used'} ${ui.money(l.used, currency)}, ${ui.money(l.remaining, currency)} left`);
    }
    if (l.tierLimit != null && l.tierLimit !== l.limit) sub.push(`your tier allows up to ${ui.money(l.tierLimit, currency)}`);
    return h('li', { className: 'limit', id },
      h('div', { className: 'tx-main' },
        h('div', null, h('strong', null, KIND_WORDS[l.kind] || l.kind), ': ', h('span', { className: 'limit-value' }, value)),
        sub.length ? h('div', { className: 'tx-sub' }, sub.join('; ')) : null,
        l.pending ? h('div', { className: 'tx-sub pending', id: `${id}-pending` },
          `Raise to ${ui.money(l.pending.amount, currency)} pending: applies ${ui.dateTime(l.pending.effectiveAt)}`) : null),
      ui.button('Change', () => model.edit(currency, l.kind), { kind: 'secondary', id: `${id}-change` }));
  }

  /**
   * The row of the limit being changed: its form.
   * @param {string} currency
   * @param {any} l
   */
  function editRow(currency, l) {
    const amount = ui.field(`New limit (${currency === 'EUR' ? '€' : '₦'})`, {
      id: `limit-${currency}-${l.kind}-amount`, inputMode: 'decimal', required: true, autocomplete: 'off',
      value: l.limit == null ? '' : String(l.limit / 100),
    });
    const save = h('button', { type: 'submit', className: 'btn primary', id: `limit-${currency}-${l.kind}-save` }, 'Save');
    const form = h('form', { className: 'limit-form', novalidate: true }, amount, save,
      ui.button('Cancel', () => model.cancel(), { kind: 'link' }));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      ui.showError(form, null);
      try {
        await ui.busy(save, model.save(amount.input.value));
      } catch (error) {
        if (model.stopped) return;
        ui.showRefusal(error, { box: form, fields: { amount } });
      }
    });
    return h('li', { className: 'limit', id: `limit-${currency}-${l.kind}` }, form);
  }

  await model.load();
  return () => model.stop();
}

export const routes = [{ path: '/limits', title: 'Limits', auth: true, render: renderLimits }];
