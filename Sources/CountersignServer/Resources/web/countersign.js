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
 *
 * The library is the modules in `countersign/`, each one concern; this file is the one entry and
 * re-exports their public API (import from here, not from the modules, which may move):
 * - `client.js`: `Countersign`, the client: `request` (headers, credentials, errors) and one
 *   method per call, by area: auth, device keys, the account's security, the operator console,
 *   wallet, limits, airtime, transfers; the payment flows that check a challenge before signing.
 * - `market.js`: `Marketplace`, the marketplace's calls, as `client.market` (products, bids,
 *   checkout totals, orders and their payment, refunds, cards).
 * - `stream.js`: a transfer's live document as Server-Sent Events (`client.watchTransfer`).
 * - `webauthn.js`: WebAuthn's JSON ⇄ the browser's structures, `getAssertion`, `createCredential`.
 * - `canonical.js`: canonical JSON and the payment challenge, `checkChallenge`.
 * - `errors.js`: `CountersignError`, and how an HTTP answer becomes one.
 * - `base64url.js`, `idempotency.js` (`newIdempotencyKey`), `types.js` (JSDoc types only).
 * Every path of the API the web app calls is spelled in `client.js`, `market.js` or `stream.js`
 * (Tests/Web/api-paths.test.mjs holds them to openapi.yaml). Copying the library means copying this
 * file and the `countersign/` folder beside it.
 * @module countersign
 */

export { base64urlDecode, base64urlEncode } from './countersign/base64url.js';
export { canonicalJSON, checkChallenge, paymentChallenge } from './countersign/canonical.js';
export { Countersign } from './countersign/client.js';
export { CountersignError, LOCAL_CODES } from './countersign/errors.js';
export { newIdempotencyKey } from './countersign/idempotency.js';
export { Marketplace } from './countersign/market.js';
export { FINAL_TRANSFER_STATUSES } from './countersign/stream.js';
export {
  authenticationToJSON, createCredential, getAssertion, registrationToJSON, toCreationOptions, toRequestOptions,
  userVerified,
} from './countersign/webauthn.js';
export * from './countersign/types.js';
