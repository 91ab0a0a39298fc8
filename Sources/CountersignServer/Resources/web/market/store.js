// @ts-check
// What the marketplace screens keep in the browser, never money or secrets: per checkout
// (sessionStorage, this tab) the buyer's choices and the payment sent to the provider, so a payer back
// from the bank's page finds the screen as they left it. Keyed by bid: a bid has at most one order,
// and the choices exist before the order does.

const prefix = 'countersign.market.';

function read(key) {
  try {
    return JSON.parse(sessionStorage.getItem(prefix + key) ?? 'null');
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(prefix + key);
    else sessionStorage.setItem(prefix + key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the screen still works, it only forgets.
  }
}

/** The kept checkout of `bidId`: {choices, orderId?, redirected?} or null. */
export const checkoutState = (bidId) => read(`checkout.${bidId}`);

/** Merges `patch` into the kept checkout of `bidId`; null forgets it. */
export function keepCheckout(bidId, patch) {
  write(`checkout.${bidId}`, patch === null ? null : { ...(checkoutState(bidId) ?? {}), ...patch });
}

// Earlier versions kept the products, bids and orders seen here (localStorage, per user) because the
// server did not list them; it does now, so that memory is dropped.
try {
  for (const key of Object.keys(localStorage)) if (key.startsWith(`${prefix}seen.`)) localStorage.removeItem(key);
} catch {
  // Storage refused: there is nothing to drop.
}
