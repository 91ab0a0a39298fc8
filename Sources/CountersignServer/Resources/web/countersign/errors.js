// @ts-check
/** The client's one error type, and how an HTTP answer becomes one. @module */

/**
 * The codes this library makes itself, never the server: a challenge or payment other than the one
 * shown (`challenge_mismatch_local`, nothing signed), a live stream the server ended
 * (`stream_closed`), a verification answer without a token (`not_verified`). Every other code is
 * the server's `ErrorCode` (Tests/Web/error-codes.test.mjs holds the app to that), or
 * `http_<status>` for an answer without one.
 */
export const LOCAL_CODES = Object.freeze(['challenge_mismatch_local', 'stream_closed', 'not_verified']);

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

/** @param {string} text */
export function safeParse(text) {
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
export function errorFrom(response, body) {
  const header = response.headers.get('Retry-After');
  const err = body && typeof body.error === 'object' && body.error ? body.error : body;
  const code = (err && typeof err.code === 'string' && err.code) || `http_${response.status}`;
  const message = (err && typeof err.message === 'string' && err.message) || response.statusText || 'Request failed.';
  let retryAfter = err && Number.isFinite(err.retryAfter) ? Number(err.retryAfter) : null;
  if (retryAfter === null && header && /^\d+$/.test(header)) retryAfter = Number(header);
  const traceId = (err && typeof err.traceId === 'string' && err.traceId) || null;
  return new CountersignError(response.status, code, message, retryAfter, body, traceId);
}
