// @ts-check
/**
 * How a screen's model refuses an action: it rejects with an Error the view shows where the user
 * acted. `field` names the input to fix (the view puts the message under it and focuses it);
 * without one the view shows the error on the form. Words of the screen's own keep the server's
 * code and reference (`reworded`) for "Details for support".
 */
import { describeError, inDuration } from '../ui.js';
import { CODE_ERRORS } from './phone-code.js';

/**
 * A refusal of what was typed in `field`.
 * @param {string} field @param {string} message @param {object} [more]
 */
export const refusal = (field, message, more = {}) => Object.assign(new Error(message), { field, ...more });

/**
 * The server's refusal in the screen's words, its code and reference kept.
 * @param {string} message @param {any} error
 */
export const reworded = (message, error) => Object.assign(new Error(message), { code: error.code, traceId: error.traceId });

/**
 * A PIN locked after too many wrong ones (423 with retryAfter), saying until when; null for any other error.
 * @param {any} error
 */
export function pinLocked(error) {
  return error && error.status === 423 && error.retryAfter
    ? reworded(`Too many wrong PINs. Try again ${inDuration(error.retryAfter)}.`, error) : null;
}

/**
 * The SMS code refused (wrong, expired) as a refusal of the `code` field; null for any other error.
 * @param {any} error
 */
export function codeRefused(error) {
  return error && CODE_ERRORS.includes(error.code)
    ? refusal('code', describeError(error), { code: error.code, traceId: error.traceId }) : null;
}

/**
 * A new PIN the server refuses (too easy, not 4 to 6 digits) as a refusal of the `pin` field; null
 * for any other error.
 * @param {any} error
 */
export function pinRefused(error) {
  return error && (error.code === 'weak_pin' || error.code === 'invalid_pin')
    ? refusal('pin', describeError(error), { code: error.code, traceId: error.traceId }) : null;
}
