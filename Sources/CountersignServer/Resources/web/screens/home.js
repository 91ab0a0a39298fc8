// @ts-check
/**
 * The dashboard: balance, cashback and recent transactions (paged), kept current. What it shows and
 * reads is `HomeModel`'s (home-model.js); this file draws it and asks for a refresh on focus, on
 * becoming visible and every 15 seconds.
 */
import * as ui from '../ui.js';
import { HomeModel } from './home-model.js';
import { networkName, receipt, transactionRows } from './receipt.js';

const { h } = ui;
const POLL_MS = 15000;
/** How `authorizedBy` reads: the factor, or how money came in. @type {Record<string, string>} */
const AUTHORIZED_BY = { biometric: 'passkey', ideal: 'iDEAL', bancontact: 'Bancontact' };

/**
 * A history row in words: who was on the other side, what the payer wrote, and for a failed or
 * pending payment that nothing (or nothing yet) was taken.
 * @param {any} tx
 */
function describe(tx) {
  const failed = tx.status === 'failed';
  switch (tx.type) {
    case 'topup':
      return {
        title: `${networkName(tx.productCode)} airtime${failed ? ' failed' : ''}`,
        sub: tx.recipientPhone ? `to ${tx.recipientPhone}` : '', sign: failed ? '' : '−',
      };
    case 'funding':
      if (tx.authorizedBy && tx.authorizedBy !== 'operator') {
        const how = AUTHORIZED_BY[tx.authorizedBy] || tx.authorizedBy;
        return {
          title: `Money added by ${how}${tx.status === 'failed' ? ' failed' : ''}`,
          sub: tx.status === 'pending' ? 'waiting for the payment' : '', sign: tx.status === 'completed' ? '+' : '',
        };
      }
      return { title: 'Wallet credited by Countersign', sub: '', sign: '+' };
    case 'transfer_out':
      return {
        title: `Sent to ${tx.counterpartyName || tx.recipientPhone || 'a Countersign wallet'}`,
        sub: tx.note ? `“${tx.note}”` : (tx.fees ? `includes ${ui.money(tx.fees, tx.currency)} fees` : ''), sign: '−',
      };
    case 'transfer_in':
      return { title: `Received from ${tx.counterpartyName || 'a Countersign user'}`, sub: tx.note ? `“${tx.note}”` : '', sign: '+' };
    // An operator undid a transfer (or a funding, named by `reference`): money back, or taken back.
    case 'reversal_in':
      return { title: 'Reversed by Countersign: money back', sub: `reverses ${tx.reference ?? 'a transfer'}`, sign: '+' };
    case 'reversal_out':
      return { title: 'Reversed by Countersign: money taken back', sub: `reverses ${tx.reference ?? 'a payment'}`, sign: '−' };
    case 'order_payment':
      return { title: `Paid to ${tx.counterpartyName || 'a seller'}`, sub: tx.note ? `for “${tx.note}”` : 'marketplace order', sign: '−' };
    case 'order_refund':
      return { title: `Refund from ${tx.counterpartyName || 'a seller'}`, sub: tx.note ? `for “${tx.note}”` : 'marketplace order', sign: '+' };
    default:
      return { title: tx.type, sub: '', sign: '' };
  }
}

/** What the status says next to the amount. @param {any} tx */
function statusLabel(tx) {
  if (tx.status === 'failed') return 'failed · nothing taken';
  if (tx.status === 'pending') return 'in progress';
  return tx.status;
}

/**
 * One history row; opening it shows the receipt.
 * @param {any} tx
 * @param {string} [me] the signed-in user's name
 */
export function transactionRow(tx, me = 'You') {
  const d = describe(tx);
  const by = tx.authorizedBy ? ` · by ${AUTHORIZED_BY[tx.authorizedBy] || tx.authorizedBy}` : '';
  const amount = tx.status === 'failed'
    ? h('s', { className: 'tx-void', 'aria-label': `${ui.money(tx.amount, tx.currency)}, not taken` }, ui.money(tx.amount, tx.currency))
    : `${d.sign}${ui.money(tx.amount, tx.currency)}`;
  return h('li', { className: 'tx', dataset: { type: tx.type, status: tx.status, id: tx.transactionId } },
    h('details', { className: 'tx-receipt' },
      h('summary', { className: 'tx-row' },
        h('div', { className: 'tx-main' },
          h('div', { className: 'tx-title' }, d.title),
          h('div', { className: 'tx-sub' }, [d.sub, ui.dateTime(tx.timestamp) + by].filter(Boolean).join(' · '))),
        h('div', { className: `tx-amount${d.sign === '+' ? ' in' : ''}` },
          amount,
          h('span', { className: `st ${tx.status}` }, statusLabel(tx)))),
      receipt('Receipt', transactionRows(tx, me), `receipt-${tx.transactionId}`)));
}

/**
 * What a wallet with nothing in it can do: money comes in by card or bank (Add money), by a
 * transfer from another user, or by a credit from Countersign.
 * @param {any} app
 */
function emptyWallet(app) {
  const phone = app.user.phone || '';
  const share = ui.button('Share my number', async () => {
    const text = `Send me money on Countersign: ${phone}`;
    try {
      if (navigator.share) await navigator.share({ text });
      else {
        await navigator.clipboard.writeText(phone);
        shared.textContent = 'Your number is copied. Paste it into a message to whoever will send you money.';
      }
    } catch {
      shared.textContent = `Your number is ${phone}. Give it to whoever will send you money.`;
    }
  }, { kind: 'secondary', id: 'share-number' });
  const shared = h('p', { className: 'muted', id: 'share-status', role: 'status' });
  return h('section', { className: 'card', id: 'add-money', 'aria-labelledby': 'add-money-h', hidden: true },
    h('h2', { id: 'add-money-h' }, 'How to add money'),
    h('p', null, 'Your wallet is empty. Money reaches your wallet in three ways:'),
    h('ul', null,
      h('li', null, ui.link('/add-money', 'Add money'), ' by card, or by iDEAL or Bancontact into your euro wallet.'),
      h('li', null, 'Another Countersign user sends you a transfer to your number', phone ? [' ', h('strong', { id: 'my-number' }, phone)] : null, '.'),
      h('li', null, 'Countersign credits your wallet, for example for a promotion or a refund.')),
    share, shared);
}

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderHome(view, _params, _query, app) {
  ui.setTitle(view, `Hello, ${app.user.name.split(' ')[0]}`);
  const balance = h('p', { className: 'balance', id: 'balance', 'aria-live': 'polite' }, '…');
  const cashback = h('p', { className: 'balance small', id: 'cashback' }, '…');
  // The wallets in other currencies: money in each stays in its currency.
  const others = h('ul', { className: 'wallets', id: 'wallets', 'aria-label': 'Other wallets', hidden: true });
  const list = h('ul', { className: 'list', id: 'transactions', 'aria-live': 'polite' });
  const empty = h('p', { className: 'muted', id: 'no-transactions', hidden: true }, 'No transactions yet.');
  const addMoney = emptyWallet(app);
  const more = ui.button('Show more', () => loadMore(), { kind: 'secondary', id: 'more-transactions', hidden: true });
  const updated = h('p', { className: 'muted', id: 'updated' });
  const activity = h('section', { className: 'card', 'aria-labelledby': 'tx-h' },
    h('h2', { id: 'tx-h' }, 'Recent transactions'), list, empty, more);

  view.append(
    h('section', { className: 'card stats', 'aria-label': 'Balances' },
      h('div', null, h('p', { className: 'balance-label' }, 'Wallet balance'), balance),
      h('div', null, h('p', { className: 'balance-label' }, 'Cashback'), cashback),
      others),
    h('div', { className: 'actions' },
      ui.link('/add-money', 'Add money', { className: 'btn primary', id: 'add-money-link' }),
      ui.link('/airtime', 'Buy airtime', { className: 'btn primary' }),
      ui.link('/send', 'Send money', { className: 'btn primary' }),
      ui.link('/market', 'Marketplace', { className: 'btn secondary' }),
      ui.link('/keys', 'Device keys', { className: 'btn secondary' })),
    addMoney,
    activity,
    updated);

  const model = new HomeModel(app.api, { onChange: (state) => screens[state.kind](state) });
  const screens = {
    loading() {},
    /** @param {any} state */
    failed(state) {
      ui.showError(view, state.error);
    },
    /** @param {any} state */
    shown(state) {
      ui.showError(view, state.error);
      if (state.error) return;
      const { wallet } = state;
      balance.textContent = ui.money(wallet.balance, wallet.currency);
      cashback.textContent = ui.money(wallet.cashback, wallet.currency);
      const rest = (wallet.wallets || []).filter((/** @type {any} */ w) => w.currency !== wallet.currency);
      others.replaceChildren(...rest.map((/** @type {any} */ w) => h('li', { className: 'wallet-row' },
        h('span', { className: 'balance-label' }, `${w.currency} wallet`),
        h('span', { className: 'balance medium', id: `balance-${w.currency}` }, ui.money(w.balance, w.currency)))));
      others.hidden = rest.length === 0;
      // A receipt the user opened stays open through the refresh.
      const open = new Set([...list.querySelectorAll('li.tx > details[open]')]
        .map((d) => /** @type {HTMLElement} */ (d.parentElement).dataset.id));
      const rows = state.transactions.map((/** @type {any} */ tx) => transactionRow(tx, app.user.name));
      rows.forEach((row) => {
        if (open.has(row.dataset.id)) /** @type {HTMLDetailsElement} */ (row.firstElementChild).open = true;
      });
      list.replaceChildren(...rows);
      empty.hidden = state.transactions.length > 0;
      addMoney.hidden = (wallet.wallets || [wallet]).some((/** @type {any} */ w) => w.balance > 0);
      more.hidden = !state.cursor;
      updated.textContent = `Updated ${state.updatedAt.toLocaleTimeString()}`;
    },
  };
  const refresh = () => model.refresh();

  async function loadMore() {
    try {
      await ui.busy(more, model.more());
    } catch (error) {
      ui.showError(activity, error);
    }
  }

  await refresh();
  const onFocus = () => refresh();
  const onVisible = () => {
    if (document.visibilityState === 'visible') refresh();
  };
  window.addEventListener('focus', onFocus);
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') refresh();
  }, POLL_MS);
  return () => {
    model.stop();
    clearInterval(timer);
    window.removeEventListener('focus', onFocus);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

export const routes = [{ path: '/', title: 'Home', auth: true, render: renderHome }];
