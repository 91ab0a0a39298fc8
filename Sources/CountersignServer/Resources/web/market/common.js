// Pieces the marketplace screens share.

import { h, money, link } from '../ui.js';
import { productPath, bidPath, orderPath } from './paths.js';
import { bidStatusText, orderStatusText } from './format.js';

/** A list of links, or `empty` as a hint. */
export function linkList(items, empty) {
  if (!items.length) return h('p', { className: 'hint' }, empty);
  return h('ul', { className: 'market-list' }, items.map((item) => h('li', null, item)));
}

export const productLink = (product) => link(productPath(product.id), `${product.title} · ${money(product.askingPrice, product.currency)}${product.available ? '' : ' · sold or reserved'}`);
export const bidLink = (bid, title) => link(bidPath(bid.id), `${title ? `${title} · ` : ''}bid ${money(bid.amount, bid.currency)} · ${bidStatusText[bid.status] ?? bid.status}`);
export const orderLink = (order, title) => link(orderPath(order.id), `${title ? `${title} · ` : ''}order ${money(order.totals.total, order.totals.currency)} · ${orderStatusText[order.status] ?? order.status}`);

/** Fetches each id with `fetch`, in order, skipping those that fail (gone, or another user's). */
export async function fetchEach(ids, fetch) {
  const found = await Promise.all(ids.map((id) => fetch(id).catch(() => null)));
  return found.filter(Boolean);
}

/** The id in a pasted app link (…#/market/products/<id>) or the text itself. */
export function idFrom(text, kind) {
  const match = new RegExp(`/market/${kind}/([^/?#\\s]+)`).exec(text);
  return decodeURIComponent(match ? match[1] : text.trim());
}

/** A read-only, labelled copy of an app link, to send to the other side of a sale. */
export function shareField(id, label, path, hint) {
  const url = `${location.origin}${location.pathname}#${path}`;
  return h('div', { className: 'field market-share' },
    h('label', { for: id }, label),
    h('input', { id, type: 'text', readOnly: true, value: url, 'aria-describedby': hint ? `${id}-hint` : null, on: { focus: (e) => e.target.select() } }),
    hint ? h('p', { className: 'hint', id: `${id}-hint` }, hint) : null);
}
