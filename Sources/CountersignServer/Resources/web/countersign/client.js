// @ts-check
/**
 * The Countersign API client: one method per call, grouped by area (auth, device keys, the
 * account's security, the operator console, wallet, limits, airtime, transfers); the marketplace's
 * calls are `client.market` (market.js). Every call resolves with the parsed JSON body (or null for
 * 204) and rejects with a {@link CountersignError} on any non-2xx answer.
 * @module
 */
import { checkChallenge } from './canonical.js';
import { CountersignError, errorFrom } from './errors.js';
import { newIdempotencyKey } from './idempotency.js';
import { Marketplace } from './market.js';
import { watchTransfer } from './stream.js';
import { createCredential, getAssertion } from './webauthn.js';

/** @typedef {import('./types.js').AirtimeIntent} AirtimeIntent */
/** @typedef {import('./types.js').VerificationPurpose} VerificationPurpose */
/** @typedef {import('./types.js').StepUp} StepUp */
/** @typedef {import('./types.js').AccountSecurity} AccountSecurity */
/** @typedef {import('./types.js').TransferDocument} TransferDocument */

/** The Countersign API client. */
export class Countersign {
  /**
   * @param {{baseURL?: string, fetch?: typeof fetch, token?: string | null}} options
   */
  constructor({ baseURL = '', fetch = globalThis.fetch, token = null } = {}) {
    this.baseURL = baseURL.replace(/\/+$/, '');
    this.fetch = fetch.bind(globalThis);
    this.token = token;
    /** The marketplace's calls: products, bids, checkout, orders, refunds, cards. */
    this.market = new Marketplace(this);
  }

  /** Whether the API is on another origin than this page. */
  get crossOrigin() {
    if (!this.baseURL || typeof location === 'undefined') return false;
    return new URL(this.baseURL, location.href).origin !== location.origin;
  }

  /** @param {string} path @param {Record<string, any> | URLSearchParams} [query] */
  url(path, query) {
    let url = this.baseURL + path;
    if (query) {
      const params = query instanceof URLSearchParams ? query : new URLSearchParams();
      if (!(query instanceof URLSearchParams)) {
        for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
      }
      const q = params.toString();
      if (q) url += '?' + q;
    }
    return url;
  }

  /**
   * Sends one request; resolves the parsed JSON (null when the answer has no body).
   * @param {string} method
   * @param {string} path
   * @param {{body?: any, idempotencyKey?: string, query?: Record<string, any>, signal?: AbortSignal}} options
   */
  async request(method, path, { body, idempotencyKey, query, signal } = {}) {
    /** @type {Record<string, string>} */
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    /** @type {RequestInit} */
    const init = {
      method,
      headers,
      credentials: this.crossOrigin ? 'include' : 'same-origin',
      cache: 'no-store',
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (signal) init.signal = signal;
    const response = await this.fetch(this.url(path, query), init);
    const text = response.status === 204 ? '' : await response.text();
    /** @type {any} */
    let parsed = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    if (!response.ok) throw errorFrom(response, parsed);
    return parsed;
  }

  // --- auth -----------------------------------------------------------------------------------

  /**
   * Sends a 6-digit code by SMS to `phone`, for one purpose only. The answer is the same whether or
   * not the number has an account; send `verificationId` back with the code. Ask again (a new id)
   * after `resendAfter` seconds; a code works for `expiresIn` seconds.
   * @param {{phone: string, purpose: VerificationPurpose}} body
   * @returns {Promise<{verificationId: string, expiresIn: number, resendAfter: number}>}
   */
  requestCode(body) {
    return this.request('POST', '/auth/phone/verifications', { body });
  }

  /** The server's health; `smsTestMode` is true while its SMS simulator stands in for real texts. */
  health() {
    return this.request('GET', '/health');
  }

  /**
   * Test mode only (404 otherwise): what the SMS simulator "sent" to `phone`, newest first.
   * @param {string} phone
   * @returns {Promise<{messages: Array<{to: string, body: string, sentAt: string}>}>}
   */
  simulatedMessages(phone) {
    return this.request('GET', '/sim/sms', { query: { phone } });
  }

  /**
   * Opens an account on a number a code proved (purpose `signup`). Weak PINs are refused (422 `weak_pin`).
   * @param {{verificationId: string, code: string, name: string, pin: string}} body
   */
  signup(body) {
    return this.request('POST', '/auth/signup', { body });
  }

  /**
   * Signs in with phone and PIN. A browser that never held a session of the user is refused with 401
   * `phone_code_required`: ask for a code (purpose `login`) and send it with the PIN.
   * @param {{phone: string, pin: string, verificationId?: string, code?: string}} body
   */
  login(body) {
    return this.request('POST', '/auth/login', { body });
  }

  /**
   * A forgotten PIN: a code (purpose `recover`) sets a new one and starts a session; every other
   * session ends. With the code alone PIN payments wait until the cooling-off ends; an assertion
   * from one of the user's keys (over `passkeyLoginOptions()`) lifts that.
   * @param {{verificationId: string, code: string, newPin: string, assertion?: object}} body
   */
  resetPin(body) {
    return this.request('POST', '/auth/pin/reset', { body });
  }

  /** Ends this session (and clears the session cookie). */
  logout() {
    return this.request('POST', '/auth/logout', { body: {} });
  }

  /** Ends every session of the user. */
  logoutEverywhere() {
    return this.request('POST', '/auth/logout-all', { body: {} });
  }

  /** The signed-in user's profile; rejects with status 401 when signed out. */
  profile() {
    return this.request('GET', '/user/profile');
  }

  /** Options for signing in with a discoverable passkey. */
  passkeyLoginOptions() {
    return this.request('POST', '/auth/passkey/options', { body: {} });
  }

  /**
   * Signs in with a discoverable passkey: options → `navigator.credentials.get` → verify.
   * @param {{mediation?: CredentialMediationRequirement, signal?: AbortSignal}} [opts]
   */
  async loginWithPasskey(opts = {}) {
    const options = await this.passkeyLoginOptions();
    const publicKey = options.publicKey ?? options;
    const assertion = await getAssertion(publicKey, opts);
    /** @type {any} */
    const body = { ...assertion };
    if (options.challengeId) body.challengeId = options.challengeId;
    return this.request('POST', '/auth/passkey/verify', { body });
  }

  // --- device keys ----------------------------------------------------------------------------

  /** Request options whose challenge, signed by an existing key, allows adding another key. */
  stepUpOptions() {
    return this.request('POST', '/biometric/step-up/options', { body: {} });
  }

  /**
   * Creation options, after a step-up: `{pin}` (only soon after a session a code opened),
   * `{pin, verificationId, code}` with a `bind-device` code, or `{assertion}`.
   * @param {StepUp & {payment?: boolean}} stepUp
   */
  registrationOptions(stepUp) {
    return this.request('POST', '/biometric/register/options', { body: stepUp });
  }

  /** @param {object} registration RegistrationResponseJSON */
  verifyRegistration(registration) {
    return this.request('POST', '/biometric/register/verify', { body: registration });
  }

  /**
   * Registers a passkey on this device: step-up (PIN, or else a signature from an existing key)
   * → creation options → `navigator.credentials.create` → verify. Asks for a discoverable credential.
   * With `payment: true` the server asks for a passkey usable with Secure Payment Confirmation
   * (the `payment` extension; it needs a platform authenticator). A PIN alone is refused with 401
   * `phone_code_required` unless a code opened the session lately: then pass a `bind-device` code too.
   * @param {{pin?: string, verificationId?: string, code?: string, signal?: AbortSignal, payment?: boolean}} opts
   * @returns {Promise<{verified: boolean, credentialId: string}>}
   */
  async registerPasskey({ pin, verificationId, code, signal, payment = false } = {}) {
    /** @type {StepUp} */
    let stepUp;
    if (pin) {
      stepUp = verificationId && code ? { pin, verificationId, code } : { pin };
    } else {
      const options = await this.stepUpOptions();
      stepUp = { assertion: await getAssertion(options, { signal }) };
    }
    const options = await this.registrationOptions(payment ? { ...stepUp, payment: true } : stepUp);
    const creation = {
      ...options,
      authenticatorSelection: {
        ...(options.authenticatorSelection || {}),
        residentKey: 'required',
        requireResidentKey: true,
      },
    };
    const registration = await createCredential(creation, { signal });
    return this.verifyRegistration(registration);
  }

  /** The user's device keys. */
  credentials() {
    return this.request('GET', '/biometric/credentials');
  }

  /** @param {string} id credential id (base64url) */
  revokeCredential(id) {
    return this.request('DELETE', `/biometric/credentials/${encodeURIComponent(id)}`);
  }

  // --- the account's security -----------------------------------------------------------------

  /**
   * The number and whether a code proved it, PIN locks and cooling-offs, and the new-device limit.
   * @returns {Promise<AccountSecurity>}
   */
  accountSecurity() {
    return this.request('GET', '/account/security');
  }

  /**
   * The devices that may sign in with the PIN alone (newest use first; `current` is this one).
   * @returns {Promise<{devices: Array<{id: string, label: string, createdAt: string, lastUsedAt: string, current: boolean}>}>}
   */
  devices() {
    return this.request('GET', '/account/devices');
  }

  /** Forgets a remembered device and ends its sessions. @param {string} id */
  forgetDevice(id) {
    return this.request('DELETE', `/account/devices/${encodeURIComponent(id)}`);
  }

  /**
   * The latest security events, newest first.
   * @returns {Promise<{events: Array<{id: string, kind: string, detail: string, at: string}>}>}
   */
  activity() {
    return this.request('GET', '/account/activity');
  }

  /**
   * Moves the account to another number: a `change-phone` code sent to the new number, and a step-up,
   * the PIN with a `change-phone` code sent to the current number (or an assertion).
   * @param {{verificationId: string, code: string, stepUp: StepUp}} body
   * @returns {Promise<AccountSecurity>}
   */
  changePhone(body) {
    return this.request('POST', '/account/phone', { body });
  }

  // --- operator console (operators only: 403 not_operator otherwise) ---------------------------

  /** Headline numbers, store totals and the last ledger audit. */
  operatorOverview() {
    return this.request('GET', '/operator/overview');
  }

  /** The latest 50 operator actions, newest first. */
  operatorActions() {
    return this.request('GET', '/operator/actions');
  }

  /** Runs the ledger audit now (at most five a minute per server). */
  operatorRunAudit() {
    return this.request('POST', '/operator/audit');
  }

  /** @param {string} prefix the start of a number as the forms take one: `+234803…` or `0803 1…` (at least 8 digits in E.164) */
  operatorSearchUsers(prefix) {
    return this.request('GET', '/operator/users', { query: { phone: prefix } });
  }

  /** @param {string} userId */
  operatorUser(userId) {
    return this.request('GET', `/operator/users/${encodeURIComponent(userId)}`);
  }

  /** @param {string} userId @param {string} pin the operator's own PIN */
  operatorUnlock(userId, pin) {
    return this.request('POST', `/operator/users/${encodeURIComponent(userId)}/unlock`, { body: { pin } });
  }

  /** @param {string} userId @param {string} credentialId @param {string} pin the operator's own PIN */
  operatorRevokeKey(userId, credentialId, pin) {
    return this.request('POST',
      `/operator/users/${encodeURIComponent(userId)}/keys/${encodeURIComponent(credentialId)}/revoke`, { body: { pin } });
  }

  /**
   * Puts the user in a spending limits tier (one of the detail's `limitsTiers`).
   * @param {string} userId @param {{tier: string, pin: string}} body the tier and the operator's own PIN
   */
  operatorAssignTier(userId, body) {
    return this.request('PUT', `/operator/users/${encodeURIComponent(userId)}/tier`, { body });
  }

  /**
   * Credits the user's wallet in `currency` (the primary one when absent). Keep `idempotencyKey`
   * for retries of the same funding: the server credits once per key.
   * @param {string} userId @param {{pin: string, amount: number, currency?: string}} body @param {{idempotencyKey: string}} opts
   */
  operatorFund(userId, body, { idempotencyKey }) {
    return this.request('POST', `/operator/users/${encodeURIComponent(userId)}/fund`, { body, idempotencyKey });
  }

  /**
   * Registers a webhook endpoint; the answer's `secret` (`whsec_…`) is shown this once.
   * @param {{url: string, events: string[], pin: string}} body `events`: types or `*`; `pin`: the operator's own
   */
  operatorAddWebhook(body) {
    return this.request('POST', '/operator/webhooks', { body });
  }

  /** The webhook endpoints (never their secrets). */
  operatorWebhooks() {
    return this.request('GET', '/operator/webhooks');
  }

  /** @param {string} endpointId */
  operatorRemoveWebhook(endpointId) {
    return this.request('DELETE', `/operator/webhooks/${encodeURIComponent(endpointId)}`);
  }

  /** The latest 100 delivery attempts, newest first. @param {string} endpointId */
  operatorWebhookDeliveries(endpointId) {
    return this.request('GET', `/operator/webhooks/${encodeURIComponent(endpointId)}/deliveries`);
  }

  /** Enables an endpoint that three days of failures disabled. @param {string} endpointId */
  operatorEnableWebhook(endpointId) {
    return this.request('POST', `/operator/webhooks/${encodeURIComponent(endpointId)}/enable`);
  }

  /** Sends an event to the endpoint again. @param {string} endpointId @param {string} eventId */
  operatorRedeliverWebhook(endpointId, eventId) {
    return this.request('POST',
      `/operator/webhooks/${encodeURIComponent(endpointId)}/events/${encodeURIComponent(eventId)}/redeliver`);
  }

  /**
   * Reverses a completed transfer: the payer gets the amount and fees back, once. 422
   * `reversal_insufficient_funds` (with `error.available`) if the payee's wallet lacks it.
   * @param {string} transferId @param {{pin: string, reason: string}} body
   */
  operatorReverseTransfer(transferId, body) {
    return this.request('POST', `/operator/transfers/${encodeURIComponent(transferId)}/reverse`, { body });
  }

  /** Reverses an operator's funding (its transaction id). @param {string} transactionId @param {{pin: string, reason: string}} body */
  operatorReverseFunding(transactionId, body) {
    return this.request('POST', `/operator/fundings/${encodeURIComponent(transactionId)}/reverse`, { body });
  }

  /**
   * Refunds a paid order at any time, with the operator's PIN. Keep `idempotencyKey` for retries.
   * @param {string} orderId @param {{amount: number, reason: string, pin: string}} body @param {{idempotencyKey: string}} opts
   */
  operatorRefundOrder(orderId, body, { idempotencyKey }) {
    return this.request('POST', `/operator/orders/${encodeURIComponent(orderId)}/refunds`, { body, idempotencyKey });
  }

  // --- wallet ---------------------------------------------------------------------------------

  /** The primary wallet's balance and cashback, and every wallet in `wallets` (one per currency). */
  wallet() {
    return this.request('GET', '/user/wallet');
  }

  /**
   * Adds money to the wallet in `body.currency` by card or bank. Keep `idempotencyKey` for retries:
   * the server answers the funding that key started, never a second payment. Send the payer to
   * `redirectURL` when it is set, then poll `funding(id)`.
   * @param {{amount: number, currency: string, method: 'card' | 'ideal' | 'bancontact', paymentMethodId?: string, returnURL?: string}} body
   * @param {{idempotencyKey: string}} opts
   */
  createFunding(body, { idempotencyKey }) {
    return this.request('POST', '/wallet/fundings', { body, idempotencyKey });
  }

  /** Where a funding stands, asked of the provider while pending. @param {string} id */
  funding(id) {
    return this.request('GET', `/wallet/fundings/${encodeURIComponent(id)}`);
  }

  /** With `currency`, one wallet's only. @param {{limit?: number, cursor?: string, currency?: string}} [page] */
  transactions(page = {}) {
    return this.request('GET', '/user/transactions', { query: page });
  }

  // --- limits ---------------------------------------------------------------------------------

  /** The spending limits per currency, with what is used and what remains (`GET /user/limits`). */
  limits() {
    return this.request('GET', '/user/limits');
  }

  /**
   * Changes one limit: lower applies at once; higher (up to the tier's) needs `stepUp`, an
   * assertion over {@link stepUpOptions}'s challenge, and applies after the server's delay.
   * @param {{currency: string, kind: string, amount: number, stepUp?: object}} body
   */
  setLimit(body) {
    return this.request('PUT', '/user/limits', { body });
  }

  // --- airtime --------------------------------------------------------------------------------

  /**
   * Request options bound to the intent; `transaction` and `nonce` let the page check the challenge.
   * `pinAllowed: false` says the PIN alone may not pay it now (over the PIN allowance): offer only the
   * passkey, since {@link buyAirtimeWithPin} would be refused with `strong_authentication_required`.
   * @param {AirtimeIntent} intent
   */
  airtimeOptions(intent) {
    return this.request('POST', '/biometric/auth/options', { body: intent });
  }

  /**
   * Checks the challenge of airtime options against the intent the user means to pay.
   * Rejects with `challenge_mismatch_local` if the server's intent or challenge differ.
   * @param {any} options the answer of {@link airtimeOptions}
   * @param {AirtimeIntent} intent
   */
  async checkAirtimeOptions(options, intent) {
    const t = options.transaction || {};
    if (t.amount !== intent.amount || t.productCode !== intent.productCode) {
      throw new CountersignError(0, 'challenge_mismatch_local', 'The server described another payment; nothing was signed.');
    }
    await checkChallenge(options.nonce, t, options.challenge);
  }

  /** @param {object} assertion AuthenticationResponseJSON */
  verifyAssertion(assertion) {
    return this.request('POST', '/biometric/auth/verify', { body: assertion });
  }

  /**
   * Exactly one of `verificationToken`, `assertion` (the AuthenticationResponseJSON over the options'
   * challenge, checked by the server as verify would) and `pin`.
   * @param {AirtimeIntent & {useCashback?: boolean, verificationToken?: string, assertion?: object, pin?: string}} body
   * @param {{idempotencyKey?: string}} opts
   */
  topUp(body, { idempotencyKey } = {}) {
    return this.request('POST', '/user/topup', { body, idempotencyKey: idempotencyKey ?? newIdempotencyKey() });
  }

  /**
   * Options → recompute the challenge → `navigator.credentials.get` → top-up carrying the assertion
   * (two calls); with `calls: 3`, the seed's flow: verify for a token first, then the top-up with it.
   * @param {AirtimeIntent & {useCashback?: boolean}} intent
   * @param {{idempotencyKey?: string, signal?: AbortSignal, options?: any, calls?: 2 | 3}} opts pass
   *   `options` if fetched already
   */
  async buyAirtimeWithPasskey(intent, { idempotencyKey, signal, options, calls = 2 } = {}) {
    const { useCashback, ...bare } = intent;
    const opts = options ?? (await this.airtimeOptions(bare));
    await this.checkAirtimeOptions(opts, bare);
    const assertion = await getAssertion(opts, { signal });
    if (calls === 2) return this.topUp({ ...bare, useCashback: !!useCashback, assertion }, { idempotencyKey });
    const verified = await this.verifyAssertion(assertion);
    return this.topUp({ ...bare, useCashback: !!useCashback, verificationToken: verified.verificationToken },
      { idempotencyKey });
  }

  /**
   * PIN fallback, within the PIN allowance (403 `strong_authentication_required` beyond it).
   * @param {AirtimeIntent & {useCashback?: boolean}} intent
   * @param {string} pin
   * @param {{idempotencyKey?: string}} opts
   */
  buyAirtimeWithPin(intent, pin, { idempotencyKey } = {}) {
    return this.topUp({ ...intent, useCashback: !!intent.useCashback, pin }, { idempotencyKey });
  }

  // --- transfers ------------------------------------------------------------------------------

  /**
   * @param {{payeePhone: string, amount: number, currency: string, note?: string}} body
   * @param {{idempotencyKey?: string}} opts
   * @returns {Promise<TransferDocument>}
   */
  createTransfer(body, { idempotencyKey } = {}) {
    return this.request('POST', '/transfers', { body, idempotencyKey: idempotencyKey ?? newIdempotencyKey() });
  }

  /** @param {string} id @returns {Promise<TransferDocument>} */
  getTransfer(id) {
    return this.request('GET', `/transfers/${encodeURIComponent(id)}`);
  }

  /** @param {string} id @param {object} assertion AuthenticationResponseJSON */
  authorizeTransfer(id, assertion) {
    return this.request('POST', `/transfers/${encodeURIComponent(id)}/authorization`, { body: assertion });
  }

  /**
   * Recomputes the quote's challenge, signs it with the device key and authorizes the transfer.
   * @param {TransferDocument} doc a document in AUTHORIZATION_REQUIRED
   * @param {{signal?: AbortSignal, sign?: (requestJSON: any) => Promise<object>}} opts `sign` replaces
   *   `navigator.credentials.get` (e.g. Secure Payment Confirmation with `doc.challenge.securePaymentConfirmation`)
   */
  async signTransfer(doc, { signal, sign } = {}) {
    if (!doc.quote || !doc.challenge) throw new CountersignError(0, 'invalid_state', 'The transfer has no quote to sign.');
    if (doc.quote.transferId !== doc.id || doc.quote.amount !== doc.amount) {
      throw new CountersignError(0, 'challenge_mismatch_local', 'The quote is not for this transfer; nothing was signed.');
    }
    await checkChallenge(doc.challenge.nonce, doc.quote, doc.challenge.challenge);
    const assertion = sign ? await sign(doc.challenge) : await getAssertion(doc.challenge, { signal });
    return this.authorizeTransfer(doc.id, assertion);
  }

  /** @param {string} id */
  declineTransfer(id) {
    return this.request('POST', `/transfers/${encodeURIComponent(id)}/decline`, { body: {} });
  }

  /** @param {string} id */
  cancelTransfer(id) {
    return this.request('POST', `/transfers/${encodeURIComponent(id)}/cancel`, { body: {} });
  }

  /**
   * Watches a transfer's live document (stream.js). `onDocument` gets every version (in order); the
   * stream ends by itself after a final status. Returns a function that stops watching.
   * @param {string} id
   * @param {(doc: TransferDocument) => void} onDocument
   * @param {{onError?: (error: unknown) => void}} opts
   * @returns {() => void}
   */
  watchTransfer(id, onDocument, opts = {}) {
    return watchTransfer(this, id, onDocument, opts);
  }
}
