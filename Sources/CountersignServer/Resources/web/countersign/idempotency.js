// @ts-check
/** Idempotency keys: one per payment the user means, kept for its retries. @module */
import { base64urlEncode } from './base64url.js';

/** A random Idempotency-Key. */
export function newIdempotencyKey() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
}
