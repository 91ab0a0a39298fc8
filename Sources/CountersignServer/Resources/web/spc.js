// @ts-check
/**
 * spc.js: pays a Countersign payment challenge with W3C Secure Payment Confirmation (SPC), so the
 * browser itself shows the amount, the payee and the instrument, and the authenticator signs what
 * it showed. An ES module with no imports; no build step.
 *
 *   import { canUseSPC, payWithSPC } from './spc.js';
 *   const options = await api('GET', '/biometric/auth/options?…');   // or a transfer's `challenge`
 *   if (options.securePaymentConfirmation && await canUseSPC()) {
 *     const assertion = await payWithSPC(options.securePaymentConfirmation);   // in a click handler
 *     await api('POST', '/biometric/auth/verify', assertion);
 *   } else {
 *     // navigator.credentials.get with the WebAuthn options, as before
 *   }
 *
 * The server accepts the assertion (clientDataJSON type `payment.get`) only on the payment paths
 * and only if what the browser showed is exactly `securePaymentConfirmation`: pass it unchanged.
 * The passkey must have been registered with `{"payment": true}` (the `payment` extension).
 * @module spc
 */

/**
 * `securePaymentConfirmation` of `GET /biometric/auth/options` or of a transfer's `challenge`.
 * @typedef {object} SPCData
 * @property {string} rpId
 * @property {string[]} credentialIds base64url
 * @property {string} challenge base64url
 * @property {string} payeeName
 * @property {string} [payeeOrigin] https only
 * @property {{currency: string, value: string}} total
 * @property {{displayName: string, icon: string}} instrument
 * @property {number} timeout milliseconds
 */

const METHOD = 'secure-payment-confirmation';

/** @param {string} text base64url, padding tolerated */
function fromBase64url(text) {
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '==='.slice((base64.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** @param {ArrayBuffer | ArrayBufferView} data */
function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Whether this browser offers Secure Payment Confirmation here (a secure context with
 * `PaymentRequest` and the SPC method). It does not tell whether a passkey on this device matches:
 * the browser keeps that private, and `payWithSPC` rejects when none does.
 * @returns {Promise<boolean>}
 */
export async function canUseSPC() {
  if (typeof window === 'undefined' || !window.isSecureContext || typeof PaymentRequest !== 'function') return false;
  try {
    const availability = /** @type {any} */ (PaymentRequest).securePaymentConfirmationAvailability;
    if (typeof availability === 'function') return (await availability.call(PaymentRequest)) === 'available';
    // Older browsers: a request with placeholder data; canMakePayment() looks at no credential.
    const probe = new PaymentRequest(
      [{
        supportedMethods: METHOD,
        data: {
          rpId: location.hostname, credentialIds: [new Uint8Array(16)], challenge: new Uint8Array(16), payeeName: 'Countersign',
          instrument: { displayName: 'Countersign', icon: 'data:image/png;base64,iVBORw0KGgo=' }, timeout: 60000,
        },
      }],
      { total: { label: 'Total', amount: { currency: 'USD', value: '0.01' } } },
    );
    return await probe.canMakePayment();
  } catch {
    return false;
  }
}

/**
 * Shows the browser's payment confirmation for `spc` and resolves the signed assertion as WebAuthn
 * `AuthenticationResponseJSON`, ready for `POST /biometric/auth/verify` (top-up) or
 * `POST /transfers/{id}/authorization`. Call it from a user gesture (a click): a browser allows at
 * most one `show()` per page without one. Rejects as `PaymentRequest.show()` does: `NotAllowedError`
 * when the user cancels or no passkey on this device matches (offer the passkey fallback then),
 * `NotSupportedError` when SPC is not available, `SecurityError` outside a secure context.
 * @param {SPCData} spc
 * @param {{label?: string}} [opts] the label of the total line (default "Total")
 * @returns {Promise<object>}
 */
export async function payWithSPC(spc, opts = {}) {
  /** @type {any} */
  const data = {
    rpId: spc.rpId,
    credentialIds: spc.credentialIds.map(fromBase64url),
    challenge: fromBase64url(spc.challenge),
    payeeName: spc.payeeName,
    instrument: { displayName: spc.instrument.displayName, icon: spc.instrument.icon },
    timeout: spc.timeout,
  };
  if (spc.payeeOrigin) data.payeeOrigin = spc.payeeOrigin;
  const request = new PaymentRequest(
    [{ supportedMethods: METHOD, data }],
    { total: { label: opts.label ?? 'Total', amount: { currency: spc.total.currency, value: spc.total.value } } },
  );
  const response = await request.show();
  try {
    return assertionJSON(/** @type {PublicKeyCredential} */ (response.details));
  } finally {
    // The verdict is the server's; the browser's sheet only needs to close.
    await response.complete('success').catch(() => {});
  }
}

/**
 * `PaymentResponse.details` (a PublicKeyCredential) → AuthenticationResponseJSON.
 * @param {PublicKeyCredential} credential
 */
function assertionJSON(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  /** @type {any} */
  const json = {
    id: toBase64url(credential.rawId),
    rawId: toBase64url(credential.rawId),
    type: 'public-key',
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
    },
  };
  if (response.userHandle && response.userHandle.byteLength > 0) json.response.userHandle = toBase64url(response.userHandle);
  return json;
}
