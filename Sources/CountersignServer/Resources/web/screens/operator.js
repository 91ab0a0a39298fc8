// @ts-check
/**
 * The operator console, for users an operator flagged (`countersign operator grant`): the headline
 * numbers, the ledger audit, finding users, one user's wallet, keys and transactions, and the three
 * actions (unlock, revoke a key, fund the wallet), each with the operator's own PIN. The server
 * checks everything (403 `not_operator` for anyone else); this page only hides the link.
 */
import * as ui from '../ui.js';
import { newIdempotencyKey } from '../countersign.js';

const { h } = ui;

/** Readable names for the action log. */
const ACTIONS = /** @type {Record<string, string>} */ ({
  grant_operator: 'Made an operator',
  revoke_operator: 'No longer an operator',
  run_audit: 'Ran the ledger audit',
  unlock_account: 'Unlocked an account',
  revoke_key: 'Revoked a device key',
  fund_wallet: 'Funded a wallet',
});

/** @param {any} run */
function auditText(run) {
  if (!run) return 'The audit has not run yet.';
  const when = ui.dateTime(run.ranAt);
  return run.passed
    ? `Passed · ${when} · from the ${run.via === 'cli' ? 'command line' : 'console'}`
    : `Failed: ${run.failedChecks.join(', ')} · ${when}`;
}

/**
 * `/operator`: headline numbers, the audit, user search, the action log.
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} query
 * @param {any} app
 */
async function renderConsole(view, _params, query, app) {
  ui.setTitle(view, 'Operator console');
  const numbers = h('div', { id: 'overview' });
  const overviewCard = h('section', { className: 'card', 'aria-labelledby': 'overview-h' },
    h('h2', { id: 'overview-h' }, 'Now'), numbers);

  const auditResult = h('p', { id: 'audit-result', role: 'status' });
  const runAudit = ui.button('Run the audit now', () => run(), { id: 'run-audit', kind: 'secondary' });
  const auditCard = h('section', { className: 'card', id: 'audit-card', 'aria-labelledby': 'audit-h' },
    h('h2', { id: 'audit-h' }, 'Ledger audit'), auditResult, runAudit);

  const phone = ui.field('Phone number starts with', {
    id: 'search-phone', inputMode: 'tel', autocomplete: 'off', placeholder: '+2348031234',
    hint: '+ and at least 8 digits; up to 20 users are shown. Each search is recorded.', value: query.get('phone') ?? '',
  });
  const results = h('ul', { className: 'list', id: 'search-results' });
  const searchForm = h('form', { className: 'card', id: 'search-form', novalidate: true, 'aria-labelledby': 'search-h' },
    h('h2', { id: 'search-h' }, 'Find a user'), phone,
    h('button', { type: 'submit', className: 'btn primary', id: 'search-submit' }, 'Search'), results);

  const actions = h('ol', { className: 'list', id: 'actions' });
  const actionsCard = h('section', { className: 'card', 'aria-labelledby': 'actions-h' },
    h('h2', { id: 'actions-h' }, 'Operator actions'), actions);
  view.append(overviewCard, auditCard, searchForm, actionsCard);

  async function loadOverview() {
    const o = await app.api.operatorOverview();
    numbers.replaceChildren(ui.details([
      ['Users', h('span', { id: 'users-count' }, String(o.users))],
      ['Locked now', h('span', { id: 'locked-count' }, String(o.lockedAccounts))],
      ['Wallet float', h('span', { id: 'wallet-float' }, ui.money(o.walletFloat, o.currency))],
      ['Requests (this server)', String(o.requests)],
      ['Server errors', h('span', { id: 'server-errors' }, String(o.serverErrors))],
      ['Lockouts', String(o.lockouts)],
      ['Rate-limit refusals', String(o.rateLimited)],
      ['Live transfer streams', String(o.streamsOpen)],
    ]));
    auditResult.textContent = auditText(o.lastAudit);
    auditResult.className = o.lastAudit && !o.lastAudit.passed ? 'bad' : '';
  }

  async function loadActions() {
    const list = (await app.api.operatorActions()).actions;
    actions.replaceChildren(...list.map((/** @type {any} */ a) => h('li', { className: 'action', dataset: { action: a.action } },
      h('div', { className: 'tx-main' },
        h('div', null, ACTIONS[a.action] ?? a.action, a.targetUserId
          ? [' · ', ui.link(`/operator/users/${encodeURIComponent(a.targetUserId)}`, 'user')] : null),
        h('div', { className: 'tx-sub' }, `${a.detail} · ${ui.dateTime(a.createdAt)} · ${a.via === 'cli' ? 'command line' : 'console'}`)))));
    if (list.length === 0) actions.replaceChildren(h('li', { className: 'muted' }, 'No actions yet.'));
  }

  async function run() {
    ui.showError(auditCard, null);
    try {
      const result = await ui.busy(runAudit, app.api.operatorRunAudit());
      auditResult.textContent = auditText(result);
      auditResult.className = result.passed ? '' : 'bad';
      await loadActions();
    } catch (error) {
      ui.showError(auditCard, error);
    }
  }

  /** @param {string} prefix */
  async function search(prefix) {
    ui.showError(searchForm, null);
    const { users } = await app.api.operatorSearchUsers(prefix);
    results.replaceChildren(...users.map((/** @type {any} */ u) => h('li', { className: 'found-user', dataset: { id: u.userId } },
      ui.link(`/operator/users/${encodeURIComponent(u.userId)}`, `${u.name} · ${u.phone}`, { className: 'user-link' }),
      u.locked ? h('span', { className: 'badge bad' }, 'Locked') : null,
      u.isOperator ? h('span', { className: 'badge' }, 'Operator') : null)));
    if (users.length === 0) results.replaceChildren(h('li', { className: 'muted', id: 'no-users' }, 'No user has a number starting so.'));
  }

  searchForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const prefix = phone.input.value.replace(/[\s-]/g, '');
    if (!/^\+[0-9]{3,15}$/.test(prefix)) {
      ui.showError(searchForm, 'Type + and at least 3 digits of the number, e.g. +234803.');
      phone.input.focus();
      return;
    }
    // Kept in the address, so Back from a user returns to the results.
    app.navigate(`/operator?phone=${encodeURIComponent(prefix)}`, { replace: true });
  });

  await Promise.all([loadOverview(), loadActions()]);
  const initial = query.get('phone');
  if (initial) {
    try {
      await search(initial);
    } catch (error) {
      ui.showError(searchForm, error);
    }
  }
}

/**
 * `/operator/users/:id`: one user, and the actions on their account.
 * @param {HTMLElement} view
 * @param {{id: string}} params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderUser(view, params, _query, app) {
  const userId = params.id;
  const own = userId === app.user.userId;
  const summary = h('div', { id: 'user-summary' });
  const pin = ui.pinField('Your operator PIN', {
    id: 'operator-pin', autocomplete: 'current-password',
    hint: 'Every change asks for your own PIN: wrong ones count towards locking it.',
  });
  const pinCard = h('section', { className: 'card', id: 'pin-card' }, pin);
  const lockState = h('div', { id: 'lock-state' });
  const unlock = ui.button('Unlock the account', () => act(unlock, lockCard,
    (/** @type {string} */ p) => app.api.operatorUnlock(userId, p), 'Account unlocked.'), { id: 'unlock' });
  const lockCard = h('section', { className: 'card', id: 'lock-card', 'aria-labelledby': 'lock-h' },
    h('h2', { id: 'lock-h' }, 'Locks'), lockState, unlock);
  const keys = h('ul', { className: 'list', id: 'user-keys' });
  const keysCard = h('section', { className: 'card', 'aria-labelledby': 'user-keys-h' },
    h('h2', { id: 'user-keys-h' }, 'Device keys'), keys);
  const amount = ui.field('Amount', { id: 'fund-amount', inputMode: 'decimal', autocomplete: 'off', placeholder: '1,000.00' });
  const fundButton = h('button', { type: 'submit', className: 'btn primary', id: 'fund-submit' }, 'Fund the wallet');
  const fundForm = h('form', { className: 'card', id: 'fund-form', novalidate: true, 'aria-labelledby': 'fund-h' },
    h('h2', { id: 'fund-h' }, 'Fund the wallet'),
    h('p', { className: 'muted' }, 'Credits the wallet from the funding account, the same entry as the wallet fund command.'),
    amount, fundButton);
  const transactions = h('ul', { className: 'list', id: 'user-transactions' });
  const txCard = h('section', { className: 'card', 'aria-labelledby': 'user-tx-h' },
    h('h2', { id: 'user-tx-h' }, 'Latest transactions'), transactions);
  const events = h('ul', { className: 'list', id: 'user-events' });
  const eventsCard = h('section', { className: 'card', 'aria-labelledby': 'user-events-h' },
    h('h2', { id: 'user-events-h' }, 'Security activity'), events);
  view.append(summary, pinCard, lockCard, keysCard, fundForm, txCard, eventsCard,
    h('p', null, ui.link('/operator', 'Back to the console')));
  if (own) {
    ui.showNotice(view, 'This is your own account: another operator must make changes to it.');
    for (const el of [unlock, fundButton]) /** @type {HTMLButtonElement} */ (el).disabled = true;
  }

  // One key per funding the operator means: a retry after an error (or a second click) reuses it,
  // so the server credits once; a new amount, or a funding done, takes a new one.
  let fundKey = newIdempotencyKey();
  amount.input.addEventListener('input', () => { fundKey = newIdempotencyKey(); });

  /** @param {any} u */
  function show(u) {
    ui.setTitle(view, u.name);
    summary.replaceChildren(h('section', { className: 'card' }, ui.details([
      ['Phone', h('span', { id: 'user-phone' }, `${u.phone} · ${u.phoneVerified ? 'proven by a code' : 'not proven yet (no transfers in)'}`)],
      ['Wallet', h('span', { id: 'user-balance' }, ui.money(u.balance, u.currency))],
      ['Cashback', ui.money(u.cashback, u.currency)],
      ['Joined', ui.dateTime(u.createdAt)],
      ['Operator', u.isOperator ? 'Yes' : 'No'],
      ['User id', h('code', null, u.userId)],
    ])));
    const l = u.lock;
    const until = [l.pinBlocked && 'PIN blocked after repeated locks (unlock to lift it)',
      !l.pinBlocked && l.pinLockedUntil && `PIN locked until ${ui.dateTime(l.pinLockedUntil)}`,
      l.paymentLockedUntil && `payments locked until ${ui.dateTime(l.paymentLockedUntil)}`].filter(Boolean);
    lockState.replaceChildren(
      h('p', { id: 'lock-status', className: l.locked ? 'bad' : '' }, l.locked ? `Locked: ${until.join('; ')}.` : 'Not locked.'),
      h('p', { className: 'muted' }, `${l.failedPinAttempts} failed PIN checks, ${l.failedPaymentAuths} failed payment authorizations counted.`));
    keys.replaceChildren(...u.keys.map((/** @type {any} */ k) => {
      const revoke = ui.button('Revoke', () => act(revoke, keysCard,
        (/** @type {string} */ p) => app.api.operatorRevokeKey(userId, k.id, p), 'Key revoked.'),
      { kind: 'danger', className: 'btn danger small revoke-key', disabled: own, 'aria-label': `Revoke key added ${ui.dateTime(k.createdAt)}` });
      return h('li', { className: 'key', dataset: { id: k.id } },
        h('div', { className: 'tx-main' },
          h('div', { className: 'key-name' }, `${k.backupEligible ? 'Synced passkey' : 'Device-bound key'} · added ${ui.dateTime(k.createdAt)}`),
          h('div', { className: 'tx-sub' }, k.lastUsedAt ? `last used ${ui.dateTime(k.lastUsedAt)}` : 'never used',
            k.flagged ? ' · disabled by a security check' : '')),
        revoke);
    }));
    if (u.keys.length === 0) keys.replaceChildren(h('li', { className: 'muted', id: 'no-user-keys' }, 'No live device keys.'));
    transactions.replaceChildren(...u.transactions.map((/** @type {any} */ t) => h('li', { className: 'tx', dataset: { id: t.transactionId } },
      h('div', { className: 'tx-main' },
        h('div', null, `${t.type} · ${t.status}`),
        h('div', { className: 'tx-sub' }, `${ui.dateTime(t.timestamp)} · by ${t.authorizedBy}`)),
      h('div', { className: 'tx-amount' }, ui.money(t.amount, t.currency)))));
    if (u.transactions.length === 0) transactions.replaceChildren(h('li', { className: 'muted' }, 'No transactions yet.'));
    events.replaceChildren(...(u.events ?? []).map((/** @type {any} */ e) => h('li', { className: 'tx', dataset: { kind: e.kind } },
      h('div', { className: 'tx-main' }, h('div', null, e.detail), h('div', { className: 'tx-sub' }, ui.dateTime(e.at))))));
    if (!u.events?.length) events.replaceChildren(h('li', { className: 'muted' }, 'Nothing yet.'));
  }

  /** The operator's PIN, or null after saying what is wrong with it. @param {Element} where */
  function operatorPin(where) {
    const value = pin.input.value;
    if (/^[0-9]{4,6}$/.test(value)) return value;
    ui.showError(where, 'Enter your 4 to 6 digit PIN above first.');
    pin.input.focus();
    return null;
  }

  /**
   * Runs one action with the PIN; shows the user after it, or the error where it was asked.
   * @param {HTMLElement} trigger @param {Element} where
   * @param {(pin: string) => Promise<any>} call @param {string} done
   */
  async function act(trigger, where, call, done) {
    ui.showError(where, null);
    ui.showNotice(view, null);
    const p = operatorPin(where);
    if (!p) return;
    try {
      const after = await ui.busy(trigger, call(p));
      pin.input.value = '';
      show(after);
      ui.showNotice(view, done);
    } catch (error) {
      ui.showError(where, pinError(error));
    }
  }

  /** @param {any} error */
  function pinError(error) {
    if (error && error.status === 423 && error.retryAfter) {
      return Object.assign(new Error(`Too many wrong PINs: your PIN is locked. Try again ${ui.inDuration(error.retryAfter)}.`),
        { code: error.code, traceId: error.traceId });
    }
    return error;
  }

  fundForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(fundForm, null);
    ui.showNotice(view, null);
    const minor = ui.parseMoney(amount.input.value);
    if (minor === null || minor < 1) {
      ui.showError(fundForm, 'Enter an amount, e.g. 1,000.00.');
      amount.input.focus();
      return;
    }
    const p = operatorPin(fundForm);
    if (!p) return;
    try {
      const funding = await ui.busy(fundButton, app.api.operatorFund(userId, { pin: p, amount: minor }, { idempotencyKey: fundKey }));
      fundKey = newIdempotencyKey();
      pin.input.value = '';
      amount.input.value = '';
      show(await app.api.operatorUser(userId));
      ui.showNotice(view, `Funded ${ui.money(funding.amount, funding.currency)}. The wallet holds ${ui.money(funding.balance, funding.currency)}.`);
    } catch (error) {
      ui.showError(fundForm, pinError(error));
    }
  });

  show(await app.api.operatorUser(userId));
}

export const routes = [
  { path: '/operator', title: 'Operator console', auth: true, render: renderConsole },
  { path: '/operator/users/:id', title: 'User', auth: true, render: renderUser },
];
