// @ts-check
/**
 * Signing a payment challenge: with W3C Secure Payment Confirmation where the browser offers it
 * (the browser itself then shows the amount and the payee, and the signature covers what it
 * showed), else with `navigator.credentials.get`. SPC comes from ../spc.js.
 */
import { getAssertion } from '../countersign.js';

/** @type {Promise<any> | null} */
let spcModule = null;

/** Resolves spc.js's exports when this browser offers Secure Payment Confirmation, else null. */
export function secureConfirmation() {
  if (!spcModule) {
    spcModule = import('../spc.js')
      .then(async (m) => ((await m.canUseSPC()) ? m : null))
      .catch(() => null);
  }
  return spcModule;
}

/**
 * Signs a payment challenge. Call it from the click that confirms (SPC needs a user gesture).
 * If SPC is offered but fails (no payment passkey on this device, or its sheet dismissed), the
 * plain WebAuthn prompt decides: its NotAllowedError is the user's "no".
 * @param {any} requestJSON WebAuthn request options, JSON form
 * @param {any} spcData the options' `securePaymentConfirmation`, if any
 * @param {{signal?: AbortSignal, label?: string}} opts
 * @returns {Promise<{assertion: any, via: 'spc' | 'webauthn'}>}
 */
export async function signPayment(requestJSON, spcData, { signal, label } = {}) {
  const spc = spcData ? await secureConfirmation() : null;
  if (spc) {
    try {
      return { assertion: await spc.payWithSPC(spcData, { label }), via: 'spc' };
    } catch {
      // Fall through to WebAuthn.
    }
  }
  return { assertion: await getAssertion(requestJSON, { signal }), via: 'webauthn' };
}
