// @ts-check
/**
 * countersign.js: a small, dependency-free client for the Countersign API, usable in any web page
 * without the Countersign app. An ES module; no build step.
 *
 *   import { Countersign } from './countersign.js';
 *   const cs = new Countersign();                          // same origin, session cookie
 *   await cs.login({ phone: '08012345678', pin: '4827' }); // a known browser; else add a code
 *   await cs.registerPasskey({ pin: '4827' });             // step-up, create, verify
 *   const receipt = await cs.buyAirtimeWithPasskey(
 *     { amount: 50000, productCode: 'AIRTIME_MTN', recipientPhone: '08012345678' });
 *
 * Every call resolves with the parsed JSON body (or null for 204) and rejects with a
 * {@link CountersignError} on any non-2xx answer. The challenge of a payment is recomputed here from
 * the nonce and the intent (or quote) before anything is signed: a mismatch rejects with
 * `CountersignError{code: 'challenge_mismatch_local'}` and nothing is signed.
 *
 * Authentication: pass `token` to send `Authorization: Bearer <token>` (native-style clients);
 * otherwise the browser's HttpOnly session cookie is used (same origin, or cross-origin with CORS
 * configured on the server; then requests carry credentials).
 * @module countersign
 */

// ---------------------------------------------------------------------------------------------
// base64url (RFC 4648 §5, no padding)

/**
 * Encodes bytes as base64url without padding.
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {string}
 */
export function base64urlEncode(data) {
  const bytes = data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes base64url (padding tolerated) to bytes.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function base64urlDecode(text) {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new TypeError('not base64url');
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '==='.slice((base64.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Canonical JSON and the payment challenge (see "Dynamic linking" in openapi.yaml)

/** @param {string} s */
function canonicalString(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/**
 * The canonical JSON the server signs over: object keys sorted at every level, no white space,
 * integers as plain decimals, strings with minimal escaping.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJSON(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return canonicalString(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError('canonical JSON holds integers only');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return '[' + value.map(canonicalJSON).join(',') + ']';
  if (typeof value === 'object') {
    const obj = /** @type {Record<string, unknown>} */ (value);
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    return '{' + keys.map((k) => canonicalString(k) + ':' + canonicalJSON(obj[k])).join(',') + '}';
  }
  throw new TypeError('value cannot be written as canonical JSON');
}

/**
 * base64url(SHA-256(nonce ‖ canonical JSON of `signed`)), the challenge a payment commits to.
 * @param {string} nonce base64url
 * @param {object} signed the intent (`transaction`) or the transfer `quote`
 * @returns {Promise<string>}
 */
export async function paymentChallenge(nonce, signed) {
  const n = base64urlDecode(nonce);
  const body = new TextEncoder().encode(canonicalJSON(signed));
  const input = new Uint8Array(n.length + body.length);
  input.set(n, 0);
  input.set(body, n.length);
  return base64urlEncode(await crypto.subtle.digest('SHA-256', input));
}

/**
 * Recomputes a payment challenge and rejects unless it equals the server's.
 * @param {string} nonce
 * @param {object} signed
 * @param {string} challenge
 */
export async function checkChallenge(nonce, signed, challenge) {
  const expected = await paymentChallenge(nonce, signed);
  if (expected !== challenge) {
    throw new CountersignError(0, 'challenge_mismatch_local',
      'The challenge does not match the payment shown; nothing was signed.');
  }
}

// ---------------------------------------------------------------------------------------------
// WebAuthn JSON ⇄ browser structures

/** @param {any} d */
function descriptor(d) {
  /** @type {PublicKeyCredentialDescriptor} */
  const out = { type: 'public-key', id: base64urlDecode(d.id) };
  if (Array.isArray(d.transports)) out.transports = d.transports;
  return out;
}

/**
 * PublicKeyCredentialCreationOptionsJSON → the `publicKey` member of `navigator.credentials.create`.
 * Uses `PublicKeyCredential.parseCreationOptionsFromJSON` where the browser has it.
 * @param {any} json
 * @returns {PublicKeyCredentialCreationOptions}
 */
export function toCreationOptions(json) {
  const PKC = /** @type {any} */ (globalThis.PublicKeyCredential);
  if (PKC && typeof PKC.parseCreationOptionsFromJSON === 'function') {
    const parsed = PKC.parseCreationOptionsFromJSON(json);
    if (json.extensions) parsed.extensions = { ...json.extensions, ...parsed.extensions };
    return parsed;
  }
  /** @type {any} */
  const out = {
    ...json,
    challenge: base64urlDecode(json.challenge),
    user: { ...json.user, id: base64urlDecode(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map(descriptor),
  };
  return out;
}

/**
 * PublicKeyCredentialRequestOptionsJSON → the `publicKey` member of `navigator.credentials.get`.
 * Members other than WebAuthn's (such as `transaction` and `nonce`) are dropped.
 * @param {any} json
 * @returns {PublicKeyCredentialRequestOptions}
 */
export function toRequestOptions(json) {
  /** @type {any} */
  const clean = { challenge: json.challenge };
  for (const k of ['rpId', 'timeout', 'userVerification', 'allowCredentials', 'extensions', 'hints']) {
    if (json[k] !== undefined && json[k] !== null) clean[k] = json[k];
  }
  const PKC = /** @type {any} */ (globalThis.PublicKeyCredential);
  if (PKC && typeof PKC.parseRequestOptionsFromJSON === 'function') {
    return PKC.parseRequestOptionsFromJSON(clean);
  }
  return {
    ...clean,
    challenge: base64urlDecode(clean.challenge),
    allowCredentials: (clean.allowCredentials || []).map(descriptor),
  };
}

/**
 * A created credential → RegistrationResponseJSON.
 * @param {PublicKeyCredential} credential
 * @returns {object}
 */
export function registrationToJSON(credential) {
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  /** @type {string[]} */
  let transports = [];
  if (typeof response.getTransports === 'function') transports = response.getTransports();
  return {
    id: base64urlEncode(credential.rawId),
    rawId: base64urlEncode(credential.rawId),
    type: 'public-key',
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: safeExtensions(credential),
    response: {
      clientDataJSON: base64urlEncode(response.clientDataJSON),
      attestationObject: base64urlEncode(response.attestationObject),
      transports,
    },
  };
}

/**
 * An assertion → AuthenticationResponseJSON.
 * @param {PublicKeyCredential} credential
 * @returns {object}
 */
export function authenticationToJSON(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  /** @type {any} */
  const out = {
    id: base64urlEncode(credential.rawId),
    rawId: base64urlEncode(credential.rawId),
    type: 'public-key',
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: safeExtensions(credential),
    response: {
      clientDataJSON: base64urlEncode(response.clientDataJSON),
      authenticatorData: base64urlEncode(response.authenticatorData),
      signature: base64urlEncode(response.signature),
    },
  };
  if (response.userHandle && response.userHandle.byteLength > 0) {
    out.response.userHandle = base64urlEncode(response.userHandle);
  }
  return out;
}

/** @param {PublicKeyCredential} credential */
function safeExtensions(credential) {
  try {
    return JSON.parse(JSON.stringify(credential.getClientExtensionResults() || {}));
  } catch {
    return {};
  }
}

/**
 * Whether an assertion's authenticator data has the UV (user verified) flag set.
 * @param {PublicKeyCredential} credential
 */
export function userVerified(credential) {
  const data = new Uint8Array(/** @type {AuthenticatorAssertionResponse} */ (credential.response).authenticatorData);
  return data.length >= 33 && (data[32] & 0x04) !== 0;
}

/**
 * Runs `navigator.credentials.get` with JSON request options; resolves AuthenticationResponseJSON.
 * @param {any} json request options (JSON form)
 * @param {{signal?: AbortSignal, mediation?: CredentialMediationRequirement}} [opts]
 */
export async function getAssertion(json, opts = {}) {
  /** @type {CredentialRequestOptions} */
  const request = { publicKey: toRequestOptions(json) };
  if (opts.signal) request.signal = opts.signal;
  if (opts.mediation) request.mediation = opts.mediation;
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get(request));
  if (!credential) throw new DOMException('No credential was returned.', 'NotAllowedError');
  return authenticationToJSON(credential);
}

/**
 * Runs `navigator.credentials.create` with JSON creation options; resolves RegistrationResponseJSON.
 * @param {any} json creation options (JSON form)
 * @param {{signal?: AbortSignal}} [opts]
 */
export async function createCredential(json, opts = {}) {
  /** @type {CredentialCreationOptions} */
  const request = { publicKey: toCreationOptions(json) };
  if (opts.signal) request.signal = opts.signal;
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create(request));
  if (!credential) throw new DOMException('No credential was created.', 'NotAllowedError');
  return registrationToJSON(credential);
}

// ---------------------------------------------------------------------------------------------
// Errors

/** A non-2xx answer from the server (or a local refusal, with status 0). */
export class CountersignError extends Error {
  /**
   * @param {number} status HTTP status (0 for a refusal made in this page)
   * @param {string} code the server's stable error code
   * @param {string} message for humans
   * @param {number | null} [retryAfter] seconds, on 423 and 429
   * @param {any} [body] the parsed error body
   * @param {string | null} [traceId] the request's trace id, which the operator finds it by
   */
  constructor(status, code, message, retryAfter = null, body = null, traceId = null) {
    super(message);
    this.name = 'CountersignError';
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.body = body;
    this.traceId = traceId;
  }
}

/** @typedef {{amount: number, productCode: string, recipientPhone: string, supplierSlug?: string}} AirtimeIntent */
/** @typedef {'signup' | 'login' | 'bind-device' | 'recover' | 'change-phone'} VerificationPurpose */
/** @typedef {{pin?: string, verificationId?: string, code?: string, assertion?: object}} StepUp */
/** @typedef {{phone: string, phoneVerified: boolean, pinLockedUntil?: string | null, pinResetRequired: boolean,
 *   pinCoolingOffUntil?: string | null, deviceCoolingOffUntil?: string | null, newDeviceMaxAmount: number,
 *   currency: string}} AccountSecurity */
/** @typedef {{id: string, status: string, payeePhone: string, payeeName?: string, amount: number,
 *   currency: string, note?: string, quote?: any, challenge?: any, error?: {code: string, message: string},
 *   sequence: number, createdAt: string, updatedAt: string}} TransferDocument */

/** Final transfer statuses: the stream ends after one of these. */
export const FINAL_TRANSFER_STATUSES = Object.freeze(['SUCCESS', 'FAILED', 'DECLINED', 'EXPIRED', 'CANCELLED']);

/** A random Idempotency-Key. */
export function newIdempotencyKey() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
}

// ---------------------------------------------------------------------------------------------
// The client

/** The Countersign API client. */
export class Countersign {
  /**
   * @param {{baseURL?: string, fetch?: typeof fetch, token?: string | null}} options
   */
  constructor({ baseURL = '', fetch = globalThis.fetch, token = null } = {}) {
    this.baseURL = baseURL.replace(/\/+$/, '');
    this.fetch = fetch.bind(globalThis);
    this.token = token;
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

  // --- orders ---------------------------------------------------------------------------------

  /**
   * The seller refunds {amount, reason} of a paid order until the buyer confirms receipt. Keep
   * `idempotencyKey` for retries of the same refund.
   * @param {string} orderId @param {{amount: number, reason: string}} body @param {{idempotencyKey?: string}} opts
   */
  refundOrder(orderId, body, { idempotencyKey } = {}) {
    return this.request('POST', `/orders/${encodeURIComponent(orderId)}/refunds`,
      { body, idempotencyKey: idempotencyKey ?? newIdempotencyKey() });
  }

  /**
   * Pays a `wallet` order from the buyer's wallet with the passkey: the order's options (the
   * challenge covers its total and seller), checked here against `expected` before anything is
   * signed, signed, verified, then the order paid with the token.
   * @param {{id: string, sellerId?: string, totals: {total: number, currency: string}}} order
   * @param {{signal?: AbortSignal, sign?: (options: any) => Promise<object>}} opts `sign` replaces
   *   `navigator.credentials.get` (e.g. Secure Payment Confirmation with `options.securePaymentConfirmation`)
   */
  async payOrderFromWallet(order, { signal, sign } = {}) {
    const options = await this.request('POST', `/orders/${encodeURIComponent(order.id)}/pay/options`, { body: {} });
    const t = options.transaction || {};
    if (t.kind !== 'marketplace_order' || t.productCode !== order.id || t.amount !== order.totals.total
      || t.currency !== order.totals.currency || (order.sellerId && t.supplierSlug !== order.sellerId)) {
      throw new CountersignError(0, 'challenge_mismatch_local', 'The server described another payment; nothing was signed.');
    }
    await checkChallenge(options.nonce, t, options.challenge);
    // A failure to sign or verify says so (`stage`), with whether the options let the PIN pay instead.
    const failed = (/** @type {any} */ error, /** @type {string} */ stage) => Object.assign(
      error instanceof Error ? error : new Error(String(error)), { stage, pinAllowed: options.pinAllowed !== false });
    let assertion;
    try {
      assertion = sign ? await sign(options) : await getAssertion(options, { signal });
    } catch (error) {
      throw failed(error, 'sign');
    }
    let verified;
    try {
      verified = await this.verifyAssertion(assertion);
    } catch (error) {
      throw failed(error, 'verify');
    }
    if (!verified.verificationToken) throw failed(new CountersignError(401, verified.code || 'not_verified', verified.message || 'The passkey was not accepted.'), 'verify');
    return this.request('POST', `/orders/${encodeURIComponent(order.id)}/pay`,
      { body: { verificationToken: verified.verificationToken } });
  }

  /** Pays a `wallet` order with the PIN instead of the passkey. @param {string} orderId @param {string} pin */
  payOrderWithPin(orderId, pin) {
    return this.request('POST', `/orders/${encodeURIComponent(orderId)}/pay`, { body: { pin } });
  }

  /** The order's refunds, oldest first. @param {string} orderId */
  async orderRefunds(orderId) {
    return (await this.request('GET', `/orders/${encodeURIComponent(orderId)}/refunds`)).refunds;
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
   * @param {AirtimeIntent & {useCashback?: boolean, verificationToken?: string, pin?: string}} body
   * @param {{idempotencyKey?: string}} opts
   */
  topUp(body, { idempotencyKey } = {}) {
    return this.request('POST', '/user/topup', { body, idempotencyKey: idempotencyKey ?? newIdempotencyKey() });
  }

  /**
   * The seed's flow: options → recompute the challenge → `navigator.credentials.get` → verify → top-up.
   * @param {AirtimeIntent & {useCashback?: boolean}} intent
   * @param {{idempotencyKey?: string, signal?: AbortSignal, options?: any}} opts pass `options` if fetched already
   */
  async buyAirtimeWithPasskey(intent, { idempotencyKey, signal, options } = {}) {
    const { useCashback, ...bare } = intent;
    const opts = options ?? (await this.airtimeOptions(bare));
    await this.checkAirtimeOptions(opts, bare);
    const assertion = await getAssertion(opts, { signal });
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
   * Watches a transfer's live document. `onDocument` gets every version (in order); the stream
   * ends by itself after a final status. Returns a function that stops watching.
   * With the session cookie this is an `EventSource`; with a bearer token (which `EventSource`
   * cannot send) it reads the stream with `fetch`.
   * @param {string} id
   * @param {(doc: TransferDocument) => void} onDocument
   * @param {{onError?: (error: unknown) => void}} opts
   * @returns {() => void}
   */
  watchTransfer(id, onDocument, { onError } = {}) {
    const path = `/transfers/${encodeURIComponent(id)}/events`;
    let lastSequence = 0;
    /** @param {string} data */
    const deliver = (data) => {
      /** @type {TransferDocument} */
      let doc;
      try {
        doc = JSON.parse(data);
      } catch (error) {
        onError?.(error);
        return false;
      }
      if (typeof doc.sequence === 'number' && doc.sequence <= lastSequence) return false;
      lastSequence = doc.sequence ?? lastSequence;
      onDocument(doc);
      return FINAL_TRANSFER_STATUSES.includes(doc.status);
    };
    if (!this.token && typeof EventSource !== 'undefined') {
      const source = new EventSource(this.url(path), { withCredentials: this.crossOrigin });
      /** @param {MessageEvent} event */
      const handler = (event) => {
        if (deliver(event.data)) source.close();
      };
      source.onmessage = handler;
      source.addEventListener('transfer', handler); // servers that still name their events
      source.onerror = () => {
        // EventSource reconnects by itself; CLOSED means the server ended it for good (204, 401, 404).
        if (source.readyState === EventSource.CLOSED) onError?.(new CountersignError(0, 'stream_closed', 'The live updates stopped.'));
      };
      return () => source.close();
    }
    const controller = new AbortController();
    this.#readStream(path, () => lastSequence, deliver, controller.signal).catch((error) => {
      if (!controller.signal.aborted) onError?.(error);
    });
    return () => controller.abort();
  }

  /**
   * Server-Sent Events over fetch, for bearer tokens; reconnects with Last-Event-ID until final.
   * @param {string} path
   * @param {() => number} last
   * @param {(data: string) => boolean} deliver returns true when the document is final
   * @param {AbortSignal} signal
   */
  async #readStream(path, last, deliver, signal) {
    for (let attempt = 0; attempt < 100 && !signal.aborted; attempt++) {
      /** @type {Record<string, string>} */
      const headers = { Accept: 'text/event-stream' };
      if (this.token) headers.Authorization = `Bearer ${this.token}`;
      if (last() > 0) headers['Last-Event-ID'] = String(last());
      const response = await this.fetch(this.url(path), {
        headers, signal, credentials: this.crossOrigin ? 'include' : 'same-origin', cache: 'no-store',
      });
      if (response.status === 204) return;
      if (!response.ok || !response.body) {
        const text = await response.text();
        throw errorFrom(response, text ? safeParse(text) : null);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, '')).join('\n');
          if (data && deliver(data)) {
            await reader.cancel().catch(() => {});
            return;
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** @param {string} text */
function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * @param {Response} response
 * @param {any} body
 */
function errorFrom(response, body) {
  const header = response.headers.get('Retry-After');
  const err = body && typeof body.error === 'object' && body.error ? body.error : body;
  const code = (err && typeof err.code === 'string' && err.code) || `http_${response.status}`;
  const message = (err && typeof err.message === 'string' && err.message) || response.statusText || 'Request failed.';
  let retryAfter = err && Number.isFinite(err.retryAfter) ? Number(err.retryAfter) : null;
  if (retryAfter === null && header && /^\d+$/.test(header)) retryAfter = Number(header);
  const traceId = (err && typeof err.traceId === 'string' && err.traceId) || null;
  return new CountersignError(response.status, code, message, retryAfter, body, traceId);
}
