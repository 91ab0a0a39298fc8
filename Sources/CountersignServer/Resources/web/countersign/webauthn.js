// @ts-check
/** WebAuthn JSON ⇄ the browser's structures, and `navigator.credentials` with JSON options. @module */
import { base64urlDecode, base64urlEncode } from './base64url.js';

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
