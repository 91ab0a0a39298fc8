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

  searchForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.fieldError(phone, null);
    const prefix = phone.input.value.trim().replace(/\s+/g, ' ');
    // The server reads the number as the sign-up form does; this only catches what cannot be one.
    if (!/^\+?[0-9][0-9 -]*$/.test(prefix) || prefix.replace(/[^0-9]/g, '').length < 6) {
      ui.fieldError(phone, 'Type at least the first 6 digits of the number, e.g. 0803 12 or +234 803.');
      phone.input.focus();
      return;
    }
    // Kept in the address, so Back from a user returns to the results; sent without separators,
    // as a space in a query would arrive as '+'.
    app.navigate(`/operator?phone=${encodeURIComponent(prefix.replace(/[\s-]/g, ''))}`, { replace: true });
  });

  await Promise.all([loadOverview(), loadActions()]);
  const initial = query.get('phone');
  if (initial) {
    try {
      await search(initial);
    } catch (error) {
      if (/** @type {any} */ (error)?.code === 'invalid_phone') {
        ui.fieldError(phone, 'That is not the start of a number the forms accept: type 0 and at least 5 digits, or + and at least 8.');
      } else ui.showError(searchForm, error);
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
  const pin = ui.pinField('Your account PIN', {
    id: 'operator-pin', autocomplete: 'current-password',
    hint: 'Your own account PIN, as you sign in with: every change asks for it, and wrong ones count towards locking it.',
  });
  const pinCard = h('section', { className: 'card', id: 'pin-card' }, pin);
  const lockState = h('div', { id: 'lock-state' });
  // Offered only while the account is locked (show() hides it otherwise): nothing to unlock else.
  const unlock = ui.button('Unlock the account', () => act(unlock, lockCard,
    (/** @type {string} */ p) => app.api.operatorUnlock(userId, p), 'Account unlocked.'), { id: 'unlock', hidden: true });
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

  // One key per funding the operator means: a retry after an error (or a second click) reuses it,
  // so the server credits once; a new amount, or a funding done, takes a new one.
  let fundKey = newIdempotencyKey();
  amount.input.addEventListener('input', () => { fundKey = newIdempotencyKey(); });
  /** The user as last shown (for the words of a confirmation). @type {any} */
  let shown = null;

  /** @param {any} u */
  function show(u) {
    shown = u;
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
      const revoke = ui.button('Revoke', async () => {
        ui.showError(keysCard, null);
        if (!operatorPin(keysCard)) return;
        const sure = await ui.confirmStep(keysCard, {
          id: 'revoke-confirm', kind: 'danger', returnTo: revoke, confirm: 'Revoke the key',
          message: `Revoke the ${label.charAt(0).toLowerCase() + label.slice(1)}? It will authorize nothing more for ${u.name}; this cannot be undone.`,
        });
        if (sure) await act(revoke, keysCard, (/** @type {string} */ p) => app.api.operatorRevokeKey(userId, k.id, p), 'Key revoked.');
      }, { kind: 'danger', className: 'btn danger small revoke-key', disabled: own, 'aria-label': `Revoke the ${label}` });
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
  }

  /** A transaction's "Reverse": reason, PIN, then a confirmation saying what moves. @param {any} t */
  function reverseButton(t) {
    const isFunding = t.type === 'funding';
    const trigger = ui.button('Reverse', async () => {
      ui.showError(txCard, null);
      ui.showNotice(view, null);
      ui.fieldError(reason, null);
      const why = reason.input.value.trim();
      if (!why) {
        ui.fieldError(reason, 'Say why you reverse it: the reason is recorded with the reversal.');
        reason.input.focus();
        return;
      }
      const p = operatorPin(txCard);
      if (!p) return;
      const sure = await ui.confirmStep(txCard, {
        id: 'reverse-confirm', kind: 'danger', returnTo: trigger, confirm: 'Reverse it',
        message: isFunding
          ? `Take the ${ui.money(t.amount, t.currency)} funding back from ${shown?.name ?? 'this user'}'s wallet? This cannot be undone.`
          : `Reverse transfer ${t.reference}? The payee gives back what they received and the payer gets it back with the fees. This cannot be undone.`,
      });
      if (!sure) return;
      try {
        const body = { pin: p, reason: why };
        await ui.busy(trigger, isFunding ? app.api.operatorReverseFunding(t.transactionId, body)
          : app.api.operatorReverseTransfer(t.reference, body));
        pin.input.value = '';
        reason.input.value = '';
        show(await app.api.operatorUser(userId));
        ui.showNotice(view, 'Reversed: both sides see it in their history.');
      } catch (error) {
        ui.showError(txCard, pinError(error));
      }
    }, { kind: 'danger', className: 'btn danger small reverse-tx', disabled: own, 'aria-label': `Reverse the ${wordFor(TRANSACTION_KINDS, t.type).toLowerCase()} of ${ui.money(t.amount, t.currency)}` });
    return trigger;
  }

  /** The operator's PIN, or null after saying what is wrong with it. @param {Element} where */
  function operatorPin(where) {
    const value = pin.input.value;
    ui.fieldError(pin, null);
    if (/^[0-9]{4,6}$/.test(value)) return value;
    ui.fieldError(pin, 'Type your own account PIN (4 to 6 digits): every change asks for it.');
    ui.showError(where, 'Type your account PIN above first.');
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

  tierForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const tier = /** @type {HTMLSelectElement} */ (tierSelect.input).value;
    await act(tierButton, tierForm, (/** @type {string} */ p) => app.api.operatorAssignTier(userId, { tier, pin: p }),
      `Now in tier ${tier}.`);
  });

  fundForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(fundForm, null);
    ui.showNotice(view, null);
    ui.fieldError(amount, null);
    const minor = ui.parseMoney(amount.input.value);
    if (minor === null || minor < 1) {
      ui.fieldError(amount, 'Enter the amount to credit, e.g. 1,000.00.');
      amount.input.focus();
      return;
    }
    const p = operatorPin(fundForm);
    if (!p) return;
    // Money moves at once and only a ledger correction takes it back: say what and how much first.
    const currency = /** @type {HTMLSelectElement} */ (fundCurrency.input).value || shown?.currency;
    const credit = ui.money(minor, currency);
    const sure = await ui.confirmStep(fundForm, {
      id: 'fund-confirm', returnTo: fundButton, confirm: `Credit ${credit}`, cancel: 'Cancel',
      message: `Credit ${credit} to ${shown?.name ?? 'this user'}'s ${currency} wallet (${shown?.phone ?? ''}) from the funding account? `
        + 'It is theirs to spend at once and is recorded under your name.',
    });
    if (!sure) {
      ui.showNotice(view, 'Nothing was credited.');
      return;
    }
    try {
      const funding = await ui.busy(fundButton, app.api.operatorFund(userId, { pin: p, amount: minor, currency }, { idempotencyKey: fundKey }));
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
