// @ts-check
/**
 * The operator console, for users an operator flagged (`countersign operator grant`): the headline
 * numbers, the ledger audit, finding users, one user's wallet, keys and transactions, and the three
 * actions (unlock, revoke a key, fund the wallet), each with the operator's own PIN. The server
 * checks everything (403 `not_operator` for anyone else); this page only hides the link. The
 * console's and the user's states and actions are `ConsoleModel`'s and `OperatorUserModel`'s
 * (operator-model.js); this file draws them and asks before what cannot be undone.
 */
import * as ui from '../ui.js';
import { ConsoleModel, OperatorUserModel } from './operator-model.js';

const { h } = ui;

/** Readable names for the action log. */
const ACTIONS = /** @type {Record<string, string>} */ ({
  grant_operator: 'Made an operator',
  revoke_operator: 'No longer an operator',
  run_audit: 'Ran the ledger audit',
  unlock_account: 'Unlocked an account',
  revoke_key: 'Revoked a device key',
  fund_wallet: 'Funded a wallet',
  assign_tier: 'Changed a limits tier',
  add_webhook: 'Added a webhook endpoint',
  remove_webhook: 'Removed a webhook endpoint',
  enable_webhook: 'Enabled a webhook endpoint',
  redeliver_webhook: 'Sent a webhook again',
  refund_order: 'Refunded an order',
  reverse_transfer: 'Reversed a transfer',
  reverse_funding: 'Reversed a funding',
});

/** Words for the kinds of wallet transaction. */
const TRANSACTION_KINDS = /** @type {Record<string, string>} */ ({
  topup: 'Airtime bought',
  funding: 'Wallet funded',
  transfer_out: 'Money sent',
  transfer_in: 'Money received',
  reversal_in: 'Reversal: money back',
  reversal_out: 'Reversal: money taken back',
  order_payment: 'Marketplace order paid',
  order_refund: 'Marketplace order refunded',
});

/** The kinds an operator may reverse. */
const REVERSIBLE = ['transfer_out', 'transfer_in', 'funding'];

/** Words for how a payment was authorized. */
const AUTHORIZED_BY = /** @type {Record<string, string>} */ ({ biometric: 'Passkey', pin: 'PIN', operator: 'Operator' });

/** Words for a transaction's status. */
const STATUSES = /** @type {Record<string, string>} */ ({ pending: 'Pending', completed: 'Completed', failed: 'Failed' });

/** "transfer_in" → "Transfer in", for a kind the app has no words for yet. @param {string} raw */
function spelled(raw) {
  const text = String(raw ?? '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** @param {Record<string, string>} words @param {string} raw */
const wordFor = (words, raw) => (Object.hasOwn(words, raw) ? words[raw] : spelled(raw));

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
    id: 'search-phone', inputMode: 'tel', autocomplete: 'off', placeholder: '0803 123',
    hint: 'The start of the number as the user gave it, e.g. 0803 123 or +234 803 123. Up to 20 users are shown. Each search is recorded.',
    value: query.get('phone') ?? '',
  });
  const results = h('div', { id: 'search-results' });
  const searchForm = h('form', { className: 'card wide', id: 'search-form', novalidate: true, 'aria-labelledby': 'search-h' },
    h('h2', { id: 'search-h' }, 'Find a user'), phone,
    h('button', { type: 'submit', className: 'btn primary', id: 'search-submit' }, 'Search'), results);

  const actions = h('div', { id: 'actions' });
  const actionsCard = h('section', { className: 'card wide', 'aria-labelledby': 'actions-h' },
    h('h2', { id: 'actions-h' }, 'Operator actions'), actions);
  view.append(h('div', { className: 'console-grid' }, overviewCard, auditCard, searchForm, actionsCard),
    h('p', null, ui.link('/operator/webhooks', 'Webhooks: endpoints, delivery logs, sending again', { id: 'webhooks-link' })));

  const model = new ConsoleModel(app.api, {
    navigate: (path, opts) => app.navigate(path, opts),
    onChange: (state) => draw(state),
  });
  /** The state drawn last: only what changed is drawn again (the focus stays where it is). @type {any} */
  let drawn = {};

  /** @param {any} state */
  function draw(state) {
    const o = state.overview;
    if (o !== drawn.overview) {
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
    }
    if (state.audit !== drawn.audit || o !== drawn.overview) {
      auditResult.textContent = auditText(state.audit);
      auditResult.className = state.audit && !state.audit.passed ? 'bad' : '';
    }
    if (state.actions !== drawn.actions) drawActions(state.actions);
    if (state.found !== drawn.found && state.found) drawFound(state.found);
    if (state.searchError !== drawn.searchError && state.searchError) {
      if (state.searchError.code === 'invalid_phone') {
        ui.fieldError(phone, 'That is not the start of a number the forms accept: type 0 and at least 5 digits, or + and at least 8.');
      } else ui.showError(searchForm, state.searchError);
    }
    drawn = state;
  }

  /** @param {any[]} list */
  function drawActions(list) {
    actions.replaceChildren(ui.table({
      caption: 'Operator actions, newest first',
      columns: ['When', 'Action', 'Detail', 'From', 'Account'],
      rows: list.map((/** @type {any} */ a) => ({
        attrs: { className: 'action', dataset: { action: a.action } },
        cells: [ui.dateTime(a.createdAt), wordFor(ACTIONS, a.action), a.detail, a.via === 'cli' ? 'Command line' : 'Console',
          a.targetUserId ? ui.link(`/operator/users/${encodeURIComponent(a.targetUserId)}`, 'Open the account') : '—'],
      })),
      empty: 'No actions yet.',
    }));
  }

  /** @param {any[]} users */
  function drawFound(users) {
    ui.showError(searchForm, null);
    results.replaceChildren(ui.table({
      caption: 'Users found',
      columns: ['Name', 'Phone', 'State'],
      rows: users.map((/** @type {any} */ u) => ({
        attrs: { className: 'found-user', dataset: { id: u.userId } },
        cells: [ui.link(`/operator/users/${encodeURIComponent(u.userId)}`, u.name, { className: 'user-link' }), u.phone,
          [u.locked ? h('span', { className: 'badge bad' }, 'Locked') : h('span', { className: 'badge' }, 'Not locked'),
            u.isOperator ? h('span', { className: 'badge' }, 'Operator') : null]],
      })),
      empty: 'No user has a number starting so. Check the digits, or type fewer of them.',
    }));
  }

  async function run() {
    ui.showError(auditCard, null);
    try {
      await ui.busy(runAudit, model.runAudit());
    } catch (error) {
      ui.showError(auditCard, error);
    }
  }

  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    ui.fieldError(phone, null);
    try {
      model.search(phone.input.value);
    } catch (error) {
      ui.fieldError(phone, /** @type {any} */ (error).message);
      phone.input.focus();
    }
  });

  await model.load(query.get('phone'));
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
  const model = new OperatorUserModel(app.api, userId, { me: app.user.userId, onChange: (state) => show(state) });
  const own = model.own;
  const summary = h('div', { id: 'user-summary' });
  const pin = ui.pinField('Your account PIN', {
    id: 'operator-pin', autocomplete: 'current-password',
    hint: 'Your own account PIN, as you sign in with: every change asks for it, and wrong ones count towards locking it.',
  });
  const pinCard = h('section', { className: 'card', id: 'pin-card' }, pin);
  const lockState = h('div', { id: 'lock-state' });
  // Offered only while the account is locked (show() hides it otherwise): nothing to unlock else.
  const unlock = ui.button('Unlock the account', undefined, { id: 'unlock', hidden: true });
  const lockCard = h('section', { className: 'card', id: 'lock-card', 'aria-labelledby': 'lock-h' },
    h('h2', { id: 'lock-h' }, 'Locks'), lockState, unlock);
  const keys = h('ul', { className: 'list', id: 'user-keys' });
  const keysCard = h('section', { className: 'card', 'aria-labelledby': 'user-keys-h' },
    h('h2', { id: 'user-keys-h' }, 'Device keys'), keys);
  const amount = ui.field('Amount', { id: 'fund-amount', inputMode: 'decimal', autocomplete: 'off', placeholder: '1,000.00' });
  // The wallet to credit; its choices are the user's wallets, filled in by show().
  const fundCurrency = ui.field('Wallet', { tag: 'select', id: 'fund-currency' });
  const fundButton = h('button', { type: 'submit', className: 'btn primary', id: 'fund-submit' }, 'Fund the wallet');
  const fundForm = h('form', { className: 'card', id: 'fund-form', novalidate: true, 'aria-labelledby': 'fund-h' },
    h('h2', { id: 'fund-h' }, 'Fund the wallet'),
    h('p', { className: 'muted' }, 'Credits the wallet from the funding account, the same entry as the wallet fund command.'),
    fundCurrency, amount, fundButton);
  const tierSelect = ui.field('Limits tier', { id: 'tier-select', tag: 'select', options: [] });
  const tierButton = h('button', { type: 'submit', className: 'btn secondary', id: 'tier-submit' }, 'Change the tier');
  const tierForm = h('form', { className: 'card', id: 'tier-form', novalidate: true, 'aria-labelledby': 'tier-h' },
    h('h2', { id: 'tier-h' }, 'Spending limits'),
    h('p', { className: 'muted', id: 'tier-now' }),
    tierSelect, tierButton);
  const transactions = h('div', { id: 'user-transactions' });
  const reason = ui.field('Reason, for a reversal', {
    id: 'reverse-reason', maxLength: 200, autocomplete: 'off',
    hint: 'A completed transfer or funding can be reversed once; the reason is recorded with it.',
  });
  const txCard = h('section', { className: 'card wide', 'aria-labelledby': 'user-tx-h' },
    h('h2', { id: 'user-tx-h' }, 'Latest transactions'), transactions, reason);
  const events = h('div', { id: 'user-events' });
  const eventsCard = h('section', { className: 'card wide', 'aria-labelledby': 'user-events-h' },
    h('h2', { id: 'user-events-h' }, 'Security activity'), events);
  view.append(h('div', { className: 'console-grid' },
    h('div', null, summary, pinCard), h('div', null, lockCard, keysCard, fundForm, tierForm), txCard, eventsCard),
  h('p', null, ui.link('/operator', 'Back to the console')));
  if (own) {
    ui.showNotice(view, 'This is your own account: another operator must make changes to it.');
    for (const el of [unlock, fundButton, tierButton]) /** @type {HTMLButtonElement} */ (el).disabled = true;
  }
  amount.input.addEventListener('input', () => model.newFunding());

  /** The user (`shown` state), with what the last action did. @param {any} state */
  function show(state) {
    const u = state.user;
    const select = /** @type {HTMLSelectElement} */ (fundCurrency.input);
    const keep = select.value;
    select.replaceChildren(...(u.wallets || [u]).map((/** @type {any} */ w) => h('option', { value: w.currency }, w.currency)));
    if (keep) select.value = keep;
    const tiers = /** @type {HTMLSelectElement} */ (tierSelect.input);
    tiers.replaceChildren(...(u.limitsTiers || []).map((/** @type {string} */ t) => h('option', { value: t }, t)));
    tiers.value = u.limitsTier || '';
    tierForm.querySelector('#tier-now')?.replaceChildren(`In tier ${u.limitsTier ?? 'unknown'}: its limits apply, `
      + 'or lower ones the user set.');
    ui.setTitle(view, u.name);
    summary.replaceChildren(h('section', { className: 'card' }, ui.details([
      ['Phone', h('span', { id: 'user-phone' }, `${u.phone} · ${u.phoneVerified ? 'proven by a code' : 'not proven yet (no transfers in)'}`)],
      ['Wallet', h('span', { id: 'user-balance' }, ui.money(u.balance, u.currency))],
      ['Cashback', ui.money(u.cashback, u.currency)],
      ...(u.wallets || []).filter((/** @type {any} */ w) => w.currency !== u.currency).map((/** @type {any} */ w) =>
        [`${w.currency} wallet`, h('span', { id: `user-balance-${w.currency}` }, ui.money(w.balance, w.currency))]),
      ['Joined', ui.dateTime(u.createdAt)],
      ['Operator', u.isOperator ? 'Yes' : 'No'],
      ['User id', h('code', null, u.userId)],
    ])));
    const l = u.lock;
    const until = [l.pinBlocked && 'PIN blocked after repeated locks (unlock to lift it)',
      !l.pinBlocked && l.pinLockedUntil && `PIN locked until ${ui.dateTime(l.pinLockedUntil)}`,
      l.paymentLockedUntil && `payments locked until ${ui.dateTime(l.paymentLockedUntil)}`].filter(Boolean);
    lockState.replaceChildren(
      h('p', { id: 'lock-status', className: l.locked ? 'bad' : '' }, l.locked ? `Locked: ${until.join('; ')}.` : 'Not locked: nothing to unlock.'),
      h('p', { className: 'muted' }, `${l.failedPinAttempts} failed PIN checks, ${l.failedPaymentAuths} failed payment authorizations counted.`));
    unlock.hidden = !l.locked;
    keys.replaceChildren(...u.keys.map((/** @type {any} */ k) => {
      const label = `${k.backupEligible ? 'Synced passkey' : 'Device-bound key'} added ${ui.dateTime(k.createdAt)}`;
      const revoke = ui.button('Revoke', () => act(revoke, keysCard, () => model.revokeKey(k.id, label, pin.input.value,
        asking(keysCard, revoke, { id: 'revoke-confirm', kind: 'danger', confirm: 'Revoke the key' }))),
      { kind: 'danger', className: 'btn danger small revoke-key', disabled: own, 'aria-label': `Revoke the ${label}` });
      return h('li', { className: 'key', dataset: { id: k.id } },
        h('div', { className: 'tx-main' },
          h('div', { className: 'key-name' }, `${k.backupEligible ? 'Synced passkey' : 'Device-bound key'} · added ${ui.dateTime(k.createdAt)}`),
          h('div', { className: 'tx-sub' }, k.lastUsedAt ? `last used ${ui.dateTime(k.lastUsedAt)}` : 'never used',
            k.flagged ? ' · disabled by a security check' : '')),
        revoke);
    }));
    if (u.keys.length === 0) keys.replaceChildren(h('li', { className: 'muted', id: 'no-user-keys' }, 'No live device keys.'));
    // What a reversal names: a transfer by its id (the line's reference), a funding by its line.
    const original = (/** @type {any} */ t) => (t.type === 'funding' ? t.transactionId : t.reference);
    const reversed = new Set(u.transactions.filter((/** @type {any} */ t) => t.type.startsWith('reversal_')).map((/** @type {any} */ t) => t.reference));
    transactions.replaceChildren(ui.table({
      caption: 'Latest transactions, newest first',
      columns: ['When', 'What', 'Status', 'Authorized with', ['Amount', 'num'], 'Action'],
      rows: u.transactions.map((/** @type {any} */ t) => ({
        attrs: { className: 'tx', dataset: { id: t.transactionId, type: t.type } },
        cells: [ui.dateTime(t.timestamp), wordFor(TRANSACTION_KINDS, t.type), wordFor(STATUSES, t.status),
          t.authorizedBy ? wordFor(AUTHORIZED_BY, t.authorizedBy) : '—', ui.money(t.amount, t.currency),
          REVERSIBLE.includes(t.type) && t.status === 'completed' && !reversed.has(original(t))
            ? reverseButton(t) : (reversed.has(original(t)) ? 'Reversed' : '—')],
      })),
      empty: 'No transactions yet.',
    }));
    events.replaceChildren(ui.table({
      caption: 'Security activity, newest first',
      columns: ['When', 'What happened'],
      rows: (u.events ?? []).map((/** @type {any} */ e) => ({
        attrs: { className: 'event', dataset: { kind: e.kind } }, cells: [ui.dateTime(e.at), e.detail],
      })),
      empty: 'Nothing yet.',
    }));
    if (state.notice) ui.showNotice(view, state.notice);
  }

  /** A transaction's "Reverse": reason, PIN, then a confirmation saying what moves. @param {any} t */
  function reverseButton(t) {
    const trigger = ui.button('Reverse', () => act(trigger, txCard, async () => {
      ui.fieldError(reason, null);
      const done = await model.reverse(t, { reason: reason.input.value, pin: pin.input.value },
        asking(txCard, trigger, { id: 'reverse-confirm', kind: 'danger', confirm: 'Reverse it' }));
      if (done) reason.input.value = '';
      return done;
    }), { kind: 'danger', className: 'btn danger small reverse-tx', disabled: own, 'aria-label': `Reverse the ${wordFor(TRANSACTION_KINDS, t.type).toLowerCase()} of ${ui.money(t.amount, t.currency)}` });
    return trigger;
  }

  /**
   * The model's questions, asked in `where` by a confirmation step that gives the focus back to `trigger`.
   * @param {Element} where @param {HTMLElement} trigger @param {{id: string, kind?: string, confirm: string, cancel?: string}} step
   * @returns {(question: {message: string, confirm?: string}) => Promise<boolean>}
   */
  function asking(where, trigger, step) {
    return async (question) => {
      const sure = await ui.confirmStep(where, { ...step, ...question, returnTo: trigger });
      // Busy from the answer on (as `ui.busy` marks it), as from the click for an action that asks
      // nothing; `act` ends it.
      if (sure) {
        /** @type {HTMLButtonElement} */ (trigger).disabled = true;
        trigger.setAttribute('aria-busy', 'true');
      }
      return sure;
    };
  }

  /** The fields an action's refusal names, and where each is. */
  const fields = { pin, amount, reason };

  /**
   * Runs one of the model's actions from `trigger`; a refusal is shown where it was asked (a field
   * typed wrong under its field), and the PIN is cleared once the action is done.
   * @param {HTMLElement} trigger @param {Element} where @param {() => Promise<boolean>} action
   */
  async function act(trigger, where, action) {
    ui.showError(where, null);
    ui.showNotice(view, null);
    ui.fieldError(pin, null);
    try {
      if (await action()) pin.input.value = '';
    } catch (error) {
      if (ui.showRefusal(error, { box: where, fields }) === 'pin') ui.showError(where, 'Type your account PIN above first.');
    } finally {
      if (trigger.hasAttribute('aria-busy')) {
        /** @type {HTMLButtonElement} */ (trigger).disabled = false;
        trigger.removeAttribute('aria-busy');
      }
    }
  }

  unlock.addEventListener('click', () => act(unlock, lockCard, () => ui.busy(unlock, model.unlock(pin.input.value))));

  tierForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const tier = /** @type {HTMLSelectElement} */ (tierSelect.input).value;
    await act(tierButton, tierForm, () => ui.busy(tierButton, model.assignTier(tier, pin.input.value)));
  });

  fundForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.fieldError(amount, null);
    await act(fundButton, fundForm, async () => {
      const done = await model.fund({
        amount: amount.input.value, pin: pin.input.value, currency: /** @type {HTMLSelectElement} */ (fundCurrency.input).value,
      }, asking(fundForm, fundButton, { id: 'fund-confirm', confirm: '', cancel: 'Cancel' }));
      if (done) amount.input.value = '';
      return done;
    });
  });

  await model.load();
}

export const routes = [
  { path: '/operator', title: 'Operator console', auth: true, render: renderConsole },
  { path: '/operator/users/:id', title: 'User', auth: true, render: renderUser },
];
