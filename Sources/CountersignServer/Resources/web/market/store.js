// What the marketplace screens keep in the browser, never money or secrets:
// - per checkout (sessionStorage, this tab): the buyer's choices and the payment sent to the provider,
//   so a payer back from the bank's page finds the screen as they left it. Keyed by bid: a bid has at
//   most one order, and the choices exist before the order does.
// - per user (localStorage): the products, bids and orders this browser has seen, for the lists the
//   server does not offer.

const prefix = 'countersign.market.';

function read(storage, key) {
  try {
    return JSON.parse(storage.getItem(prefix + key) ?? 'null');
  } catch {
    return null;
  }
}

function write(storage, key, value) {
  try {
    if (value === null) storage.removeItem(prefix + key);
    else storage.setItem(prefix + key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the screen still works, it only forgets.
  }
}

/** The kept checkout of `bidId`: {choices, orderId?, redirected?} or null. */
export const checkoutState = (bidId) => read(sessionStorage, `checkout.${bidId}`);

/** Merges `patch` into the kept checkout of `bidId`; null forgets it. */
export function keepCheckout(bidId, patch) {
  write(sessionStorage, `checkout.${bidId}`, patch === null ? null : { ...(checkoutState(bidId) ?? {}), ...patch });
}

/** The ids of `kind` ('products', 'bids', 'orders') this browser has seen for `userId`, newest first. */
export function seen(userId, kind) {
  return read(localStorage, `seen.${userId}`)?.[kind] ?? [];
}

/** Remembers `id` of `kind` for `userId` (at most 30 of each). */
export function remember(userId, kind, id) {
  if (!userId || !id) return;
  const all = read(localStorage, `seen.${userId}`) ?? {};
  all[kind] = [id, ...(all[kind] ?? []).filter((known) => known !== id)].slice(0, 30);
  write(localStorage, `seen.${userId}`, all);
}
