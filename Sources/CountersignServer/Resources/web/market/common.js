// @ts-check
// Pieces the marketplace screens share.

import { h, money, link, showError, button } from '../ui.js';
import { shopPath, myProductsPath, myBidsPath, ordersPath } from './paths.js';

const tabs = [
  [shopPath, 'For sale'],
  [myProductsPath, 'My products'],
  [myBidsPath, 'My bids'],
  [ordersPath, 'Orders'],
];

/** The marketplace's lists, as links under the title; `current` is the one shown. */
export function marketTabs(current) {
  return h('nav', { className: 'market-tabs', 'aria-label': 'Marketplace' },
    tabs.map(([path, text]) => link(path, text, { 'aria-current': path === current ? 'page' : null })));
}

/**
 * One item of a list: its title (a link), lines under it, and what can be done with it.
 * @param {{path: string, title: string, lines?: any[], actions?: any[], dataset?: Record<string, string>}} item
 */
export function listItem({ path, title, lines = [], actions = [], dataset }) {
  return h('li', { className: 'market-item', dataset },
    h('div', { className: 'market-item-main' },
      link(path, title, { className: 'market-item-title' }),
      lines.filter(Boolean).map((line) => h('p', { className: 'market-item-sub' }, line))),
    actions.length ? h('div', { className: 'market-item-actions' }, actions.filter(Boolean)) : null);
}

/** A list of items, or `empty` as a hint. */
export function itemList(items, empty, attrs = {}) {
  if (!items.length) return h('p', { className: 'hint market-empty' }, empty);
  return h('ul', { className: 'market-items', ...attrs }, items);
}

/**
 * An action that cannot be undone, behind a second step: the button (`id`) asks `question` in its
 * place, with a button that does it (`id`-confirm, `confirmText`) and one that goes back
 * (`id`-cancel). `run(event)` runs on the second press.
 * @param {{text: string, id: string, question: string, confirmText: string, run: (event: Event) => any,
 *   kind?: string, label?: string}} action
 */
export function confirmed({ text, id, question, confirmText, run, kind = 'primary', label }) {
  const box = h('div', { className: 'market-confirm' });
  const start = button(text, () => {
    box.replaceChildren(ask);
    yes.focus();
  }, { kind, id, 'aria-label': label });
  const yes = button(confirmText, (event) => run(event), { kind, id: `${id}-confirm` });
  const no = button('Not now', () => {
    box.replaceChildren(start);
    start.focus();
  }, { kind: 'secondary', id: `${id}-cancel` });
  const ask = h('div', { className: 'market-confirm-step', role: 'group', 'aria-label': text },
    h('p', { className: 'warn-box', id: `${id}-question` }, question), h('div', { className: 'actions' }, yes, no));
  box.append(start);
  return box;
}

/** "€ 100,00 · For sale" and the like: the parts that are set, joined. */
export const joined = (...parts) => parts.filter(Boolean).join(' · ');

export const askingPrice = (product) => money(product.askingPrice, product.currency);

/** The products of `ids` not yet in `known` (a Map by id), fetched one by one; those that fail are left out. */
export async function addProducts(market, ids, known) {
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  const found = await Promise.all(missing.map((id) => market.product(id).catch(() => null)));
  for (const product of found) if (product) known.set(product.id, product);
  return known;
}

/**
 * A list screen's body: `load()` fills `box` with what the server says now (a busy note first, an
 * error in its place if it fails). Answers a `reload(message)` that loads again and then announces
 * `message`, with focus on it so a keyboard user whose button went away is not lost.
 */
export function loader(box, load) {
  const announce = h('p', { className: 'notice market-announce', role: 'status', tabIndex: -1, hidden: true });
  const run = async (message) => {
    box.setAttribute('aria-busy', 'true');
    if (!box.childElementCount) box.append(h('p', { className: 'hint', role: 'status' }, 'Loading…'));
    try {
      const parts = await load();
      box.replaceChildren(...parts.filter(Boolean));
    } catch (error) {
      box.replaceChildren();
      showError(box, error);
    }
    box.setAttribute('aria-busy', 'false');
    announce.hidden = !message;
    announce.textContent = message ?? '';
    if (message) announce.focus();
  };
  box.before(announce);
  return run;
}
