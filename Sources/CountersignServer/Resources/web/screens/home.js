// @ts-check
/** The dashboard: balance, cashback and recent transactions (paged), kept current. */
import * as ui from '../ui.js';

const { h } = ui;
const PAGE = 10;
const POLL_MS = 15000;

const NETWORKS = /** @type {Record<string, string>} */ ({
  AIRTIME_MTN: 'MTN', AIRTIME_AIRTEL: 'Airtel', AIRTIME_GLO: 'Glo', AIRTIME_9MOBILE: '9mobile',
});

/** @param {any} tx */
function describe(tx) {
  switch (tx.type) {
    case 'topup':
      return { title: `${NETWORKS[tx.productCode] || 'Airtime'} airtime`, sub: tx.recipientPhone ? `to ${tx.recipientPhone}` : '', sign: '−' };
    case 'funding':
      return { title: 'Wallet funded', sub: '', sign: '+' };
    case 'transfer_out':
      return { title: 'Money sent', sub: tx.recipientPhone ? `to ${tx.recipientPhone}` : 'amount and fees', sign: '−' };
    case 'transfer_in':
      return { title: 'Money received', sub: '', sign: '+' };
    default:
      return { title: tx.type, sub: '', sign: '' };
  }
}

/** @param {any} tx */
export function transactionRow(tx) {
  const d = describe(tx);
  const by = tx.authorizedBy ? ` · by ${tx.authorizedBy === 'biometric' ? 'passkey' : tx.authorizedBy}` : '';
  return h('li', { className: 'tx', dataset: { type: tx.type, status: tx.status, id: tx.transactionId } },
    h('div', { className: 'tx-main' },
      h('div', { className: 'tx-title' }, d.title),
      h('div', { className: 'tx-sub' }, [d.sub, ui.dateTime(tx.timestamp) + by].filter(Boolean).join(' · '))),
    h('div', { className: `tx-amount${d.sign === '+' ? ' in' : ''}` },
      `${d.sign}${ui.money(tx.amount, tx.currency)}`,
      h('span', { className: `st ${tx.status}` }, tx.status)));
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
  const list = h('ul', { className: 'list', id: 'transactions', 'aria-live': 'polite' });
  const empty = h('p', { className: 'muted', id: 'no-transactions', hidden: true }, 'No transactions yet. Fund your wallet to get started.');
  const more = ui.button('Show more', () => loadMore(), { kind: 'secondary', id: 'more-transactions', hidden: true });
  const updated = h('p', { className: 'muted', id: 'updated' });
  const activity = h('section', { className: 'card', 'aria-labelledby': 'tx-h' },
    h('h2', { id: 'tx-h' }, 'Recent transactions'), list, empty, more);

  view.append(
    h('section', { className: 'card stats', 'aria-label': 'Balances' },
      h('div', null, h('p', { className: 'balance-label' }, 'Wallet balance'), balance),
      h('div', null, h('p', { className: 'balance-label' }, 'Cashback'), cashback)),
    h('div', { className: 'actions' },
      ui.link('/airtime', 'Buy airtime', { className: 'btn primary' }),
      ui.link('/send', 'Send money', { className: 'btn primary' }),
      ui.link('/market', 'Marketplace', { className: 'btn secondary' }),
      ui.link('/keys', 'Device keys', { className: 'btn secondary' })),
    activity,
    updated);

  /** @type {string | null} */
  let cursor = null;
  let loaded = 0;
  let alive = true;

  async function refresh() {
    try {
      const [wallet, page] = await Promise.all([
        app.api.wallet(),
        app.api.transactions({ limit: Math.max(PAGE, Math.min(100, loaded)) }),
      ]);
      if (!alive) return;
      ui.showError(view, null);
      balance.textContent = ui.money(wallet.balance, wallet.currency);
      cashback.textContent = ui.money(wallet.cashback, wallet.currency);
      list.replaceChildren(...page.transactions.map(transactionRow));
      loaded = page.transactions.length;
      cursor = page.nextCursor || null;
      empty.hidden = loaded > 0;
      more.hidden = !cursor;
      updated.textContent = `Updated ${new Date().toLocaleTimeString()}`;
    } catch (error) {
      if (alive) ui.showError(view, error);
    }
  }

  async function loadMore() {
    if (!cursor) return;
    try {
      const page = await ui.busy(more, app.api.transactions({ limit: PAGE, cursor }));
      if (!alive) return;
      list.append(...page.transactions.map(transactionRow));
      loaded += page.transactions.length;
      cursor = page.nextCursor || null;
      more.hidden = !cursor;
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
    alive = false;
    clearInterval(timer);
    window.removeEventListener('focus', onFocus);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

export const routes = [{ path: '/', title: 'Home', auth: true, render: renderHome }];
