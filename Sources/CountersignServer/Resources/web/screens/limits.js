// @ts-check
/**
 * Limits: the account's spending limits per currency (per payment, per day, per 30 days, the most
 * the wallet may hold), with what is used and what remains. Lowering one applies at once; raising
 * one (up to the tier's) is confirmed with a passkey and applies after the server's delay, shown as
 * pending until then.
 */
import { getAssertion } from '../countersign.js';
import * as ui from '../ui.js';

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
  let alive = true;

  async function load() {
    const limits = await app.api.limits();
    if (!alive) return;
    const hours = Math.round(limits.raiseDelaySeconds / 3600);
    intro.textContent = `Your tier: ${limits.tier}. Lowering a limit applies at once. Raising one, up to your tier's, `
      + `needs your passkey and applies ${hours} hours later, so nobody holding only your session can raise it.`;
    body.replaceChildren(...limits.currencies.map(currencyCard));
  }

  /** @param {any} c */
  function currencyCard(c) {
    return h('section', { className: 'card', 'aria-labelledby': `limits-${c.currency}-h`, dataset: { currency: c.currency } },
      h('h2', { id: `limits-${c.currency}-h` }, c.currency === 'EUR' ? 'Euro' : c.currency === 'NGN' ? 'Naira' : c.currency),
      h('ul', { className: 'list' }, ...c.limits.map((/** @type {any} */ l) => limitRow(c.currency, l))));
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
    const row = h('li', { className: 'limit', id },
      h('div', { className: 'tx-main' },
        h('div', null, h('strong', null, KIND_WORDS[l.kind] || l.kind), ': ', h('span', { className: 'limit-value' }, value)),
        sub.length ? h('div', { className: 'tx-sub' }, sub.join('; ')) : null,
        l.pending ? h('div', { className: 'tx-sub pending', id: `${id}-pending` },
          `Raise to ${ui.money(l.pending.amount, currency)} pending: applies ${ui.dateTime(l.pending.effectiveAt)}`) : null));
    row.append(ui.button('Change', () => editRow(row, currency, l), { kind: 'secondary', id: `${id}-change` }));
    return row;
  }

  /**
   * @param {HTMLElement} row
   * @param {string} currency
   * @param {any} l
   */
  function editRow(row, currency, l) {
    const amount = ui.field(`New limit (${currency === 'EUR' ? '€' : '₦'})`, {
      id: `limit-${currency}-${l.kind}-amount`, inputMode: 'decimal', required: true, autocomplete: 'off',
      value: l.limit == null ? '' : String(l.limit / 100),
    });
    const save = h('button', { type: 'submit', className: 'btn primary', id: `limit-${currency}-${l.kind}-save` }, 'Save');
    const form = h('form', { className: 'limit-form', novalidate: true }, amount, save,
      ui.button('Cancel', () => load(), { kind: 'link' }));
    row.replaceChildren(form);
    amount.input.focus();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      ui.showError(form, null);
      const minor = ui.parseMoney(amount.input.value.trim() === '0' ? '0.00' : amount.input.value);
      if (minor === null || minor < 0) {
        ui.showError(form, 'Enter an amount, at most two decimals.');
        amount.input.focus();
        return;
      }
      if (l.tierLimit != null && minor > l.tierLimit) {
        ui.showError(form, `Your tier allows at most ${ui.money(l.tierLimit, currency)} here; ask us for a higher tier.`);
        amount.input.focus();
        return;
      }
      /** @type {any} */
      const request = { currency, kind: l.kind, amount: minor };
      try {
        if (l.limit != null && minor > l.limit) {
          // A raise: the passkey confirms it.
          const options = await ui.busy(save, app.api.stepUpOptions());
          request.stepUp = await getAssertion(options);
        }
        await ui.busy(save, app.api.setLimit(request));
        if (!alive) return;
        await load();
        ui.showNotice(body, request.stepUp
          ? `Raise saved. It applies after the waiting period; until then your limit stays ${ui.money(l.limit, currency)}.`
          : 'Limit lowered. It applies now.');
      } catch (error) {
        if (!alive) return;
        const e = /** @type {any} */ (error);
        if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) {
          ui.showError(form, 'You cancelled the passkey, so the limit was not raised.');
          return;
        }
        ui.showError(form, error);
      }
    });
  }

  try {
    await load();
  } catch (error) {
    if (alive) ui.showError(body, error);
  }
  return () => { alive = false; };
}

export const routes = [{ path: '/limits', title: 'Limits', auth: true, render: renderLimits }];
