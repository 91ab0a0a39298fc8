// @ts-check
/**
 * Canonical JSON and the payment challenge (see "Dynamic linking" in openapi.yaml), held to
 * Tests/Fixtures/canonical-json.json, the vectors the Swift side reads too.
 * @module
 */
import { base64urlDecode, base64urlEncode } from './base64url.js';
import { CountersignError } from './errors.js';

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
