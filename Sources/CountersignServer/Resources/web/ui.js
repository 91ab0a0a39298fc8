// @ts-check
/**
 * ui.js: small DOM helpers shared by every screen. Builds elements with createElement and
 * textContent only (the page runs under a strict CSP and never parses HTML from data).
 * @module ui
 */
import { wordsFor } from './error-words.js';

/**
 * Builds an element.
 *   h('button', {type: 'button', className: 'primary', on: {click: fn}}, 'Pay')
 * Attributes: `on` adds listeners; `className`, `value`, `checked`, `disabled`, `hidden` and other
 * known properties are set as properties; `dataset` copies data-*; `aria-*`, `for`, `role` and the
 * rest are set with setAttribute (skipped when null/undefined/false). Children: strings and numbers
 * become text nodes; arrays are flattened; null/undefined/false are skipped.
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = /** @type {any} */ (document.createElement(tag));
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === 'on') {
      for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'className' || key === 'textContent') {
      /** @type {any} */ (el)[key] = value;
    } else if (key.startsWith('aria-') || key.startsWith('data-') || key === 'role' || key === 'for') {
      if (value !== false) el.setAttribute(key, String(value));
    } else if (key in el) {
      /** @type {any} */ (el)[key] = value;
    } else if (value !== false) {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** @param {Node} parent @param {any[]} children */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {...any} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** @type {Map<string, Intl.NumberFormat>} */
const formats = new Map();

/**
 * Formats integer minor units, with one rule for every currency on every screen: English digits
 * and grouping, the currency's own symbol right before the amount, the currency's own decimals.
 *   money(500000, 'NGN') → "₦5,000.00"    money(1250, 'EUR') → "€12.50"    money(-300, 'NGN') → "-₦3.00"
 * The one place the app formats money: every screen (the marketplace's too) calls it.
 * @param {number} minor
 * @param {string} [currency] ISO 4217
 */
export function money(minor, currency = 'NGN') {
  let format = formats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    } catch {
      format = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formats.set(currency, format);
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(Number(minor) / 10 ** digits);
}

/**
 * Parses what a user typed as major units ("1,500.50") to minor units (150050), or null.
 * @param {string} text
 * @param {number} [digits]
 */
export function parseMoney(text, digits = 2) {
  const clean = String(text).replace(/[,\s₦€]/g, '');
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  const [whole, frac = ''] = clean.split('.');
  if (frac.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(frac.padEnd(digits, '0') || '0');
}

/**
 * What an error of any kind (CountersignError, DOMException, Error, string) means to a person:
 * `what` happened and what to do `next`, in the app's words; `code`, `reference` (the request's
 * trace id, which support finds it by) and `said` (the server's own text) only for the details.
 * A server error's words come from its stable code (error-words.js), never from its message; a
 * plain Error or a string is the app's own sentence and shown as it is.
 * @param {any} error
 * @returns {{what: string, next: string | null, code: string | null, reference: string | null, said: string | null}}
 */
export function explainError(error) {
  const code = error && typeof error === 'object' && typeof error.code === 'string' ? error.code : null;
  const reference = error && typeof error === 'object' && error.traceId ? String(error.traceId) : null;
  const plain = { code, reference, said: null, next: null };
  if (!error) return { ...plain, what: 'Something went wrong.', next: 'Try again.' };
  if (typeof error === 'string') return { ...plain, what: error };
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') {
    return { ...plain, what: 'The passkey request was cancelled or timed out.', next: 'Try again when you are ready.' };
  }
  if (error.name === 'TypeError' && /fetch|network/i.test(error.message)) {
    return { ...plain, what: 'The server cannot be reached.', next: 'Check your connection and try again.' };
  }
  // A failure recorded in a document ({code, message}: a transfer's or a payment's error) reads as
  // the server's error with that code.
  const recorded = !(error instanceof Error) && typeof error === 'object' && code !== null;
  if (recorded || (error.name === 'CountersignError' && Number(error.status) > 0)) {
    const words = wordsFor(code, Number(error.status) || 0);
    const wait = error.retryAfter ? `Try again ${inDuration(Number(error.retryAfter))}.` : null;
    const locked = error.status === 423 || error.status === 429;
    return { ...plain, what: words.what, next: locked && wait ? wait : words.next ?? null, said: error.message || null };
  }
  if ((error.name === 'Error' || error.name === 'CountersignError') && error.message) {
    return { ...plain, what: error.message };
  }
  return { ...plain, what: 'Something went wrong in this page.', next: 'Reload the page and try again.', said: error.message || null };
}

/**
 * The words for an error as one sentence or two (what happened, what to do).
 * @param {any} error
 */
export function describeError(error) {
  const { what, next } = explainError(error);
  return next ? `${what} ${next}` : what;
}

/**
 * Shows a visible alert box (role="alert") saying what happened and what to do, with the
 * server's code, the request's reference and the server's text behind a "Details for support"
 * disclosure, replacing any earlier one in `container`. `showError(container, null)` removes it.
 * The box's `data-code` holds the code, for tests and support tools.
 * @param {Element} container
 * @param {any} error
 * @returns {HTMLElement | null}
 */
export function showError(container, error) {
  container.querySelectorAll(':scope > .error').forEach((e) => e.remove());
  if (!error) return null;
  const { what, next, code } = explainError(error);
  const box = h('div', { className: 'error', role: 'alert', dataset: code ? { code } : undefined },
    h('p', { className: 'error-what' }, what),
    next ? h('p', { className: 'error-next' }, next) : null,
    errorDetails(error));
  placeTop(container, box);
  return box;
}

/**
 * The "Details for support" disclosure of an error (closed): its code, the request's reference and
 * the server's own text; null when there is none of these. For screens that say what happened in
 * their own words and still owe support the details. `codeId` gives the code's element an id.
 * @param {any} error
 * @param {{codeId?: string}} opts
 * @returns {HTMLElement | null}
 */
export function errorDetails(error, { codeId } = {}) {
  const { what, code, reference, said } = explainError(error);
  if (!code && !reference && !said) return null;
  return h('details', { className: 'error-details' },
    h('summary', null, 'Details for support'),
    code ? h('p', { className: 'code' }, 'Code: ', h('code', { id: codeId }, code)) : null,
    reference ? h('p', { className: 'reference' }, 'Reference: ', h('code', null, reference)) : null,
    said && said !== what ? h('p', { className: 'said' }, 'Server said: ', said) : null);
}

/**
 * Puts a message box at the top of `container`, after its heading if it starts with one.
 * @param {Element} container
 * @param {Element} box
 */
function placeTop(container, box) {
  const first = container.firstElementChild;
  if (first && /^H[12]$/.test(first.tagName)) first.after(box);
  else container.prepend(box);
}

/**
 * Shows a status line (role="status") at the top of `container`.
 * @param {Element} container
 * @param {string | null} text
 */
export function showNotice(container, text) {
  container.querySelectorAll(':scope > .notice').forEach((e) => e.remove());
  if (!text) return null;
  const box = h('div', { className: 'notice', role: 'status' }, text);
  placeTop(container, box);
  return box;
}

/**
 * Disables a button (and marks it busy) while `promise` is pending; resolves/rejects with it.
 * @template T
 * @param {EventTarget | null} button the button (or the element an event came from)
 * @param {Promise<T> | (() => Promise<T>)} promise
 * @returns {Promise<T>}
 */
export async function busy(button, promise) {
  const b = /** @type {HTMLButtonElement | null} */ (button);
  if (b) {
    b.disabled = true;
    b.setAttribute('aria-busy', 'true');
  }
  try {
    return await (typeof promise === 'function' ? promise() : promise);
  } finally {
    if (b) {
      b.disabled = false;
      b.removeAttribute('aria-busy');
    }
  }
}

/**
 * Sets the screen's <h1> (creating it first in `view` if needed), the document title, and moves
 * focus to the heading so keyboard and screen-reader users start at the new screen.
 * @param {Element} view
 * @param {string} text
 * @returns {HTMLElement}
 */
export function setTitle(view, text) {
  let heading = /** @type {HTMLElement | null} */ (view.querySelector('h1'));
  if (!heading) {
    heading = h('h1', null);
    view.prepend(heading);
  }
  heading.textContent = text;
  heading.tabIndex = -1;
  document.title = `${text} · Countersign`;
  heading.focus({ preventScroll: false });
  return heading;
}

let fieldCount = 0;

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} FieldInput */
/** @typedef {HTMLElement & {input: FieldInput}} Field a labelled input made by {@link field} */

/**
 * A labelled input: <div class="field"><label for=id>label</label><input id=id …><p hint></div>.
 * `inputAttrs.hint` adds a description linked with aria-describedby; `inputAttrs.tag` = 'select'
 * or 'textarea' builds that element (`options: [[value, label], …]` for a select).
 * The input is `field.input`.
 * @param {string} label
 * @param {Record<string, any>} [inputAttrs]
 * @returns {Field}
 */
export function field(label, inputAttrs = {}) {
  const { hint, tag = 'input', options, ...attrs } = inputAttrs;
  const id = attrs.id || `f${++fieldCount}`;
  const hintId = hint ? `${id}-hint` : null;
  const input = h(tag, { ...attrs, id, 'aria-describedby': hintId });
  if (tag === 'select' && options) {
    for (const [value, text] of options) input.appendChild(h('option', { value }, text));
    if (attrs.value !== undefined) /** @type {HTMLSelectElement} */ (input).value = attrs.value;
  }
  const wrap = /** @type {any} */ (h('div', { className: 'field' },
    h('label', { for: id }, label),
    input,
    hint ? h('p', { className: 'hint', id: hintId }, hint) : null));
  wrap.input = input;
  return wrap;
}

/**
 * Shows `message` under a field made by {@link field} (role="alert", linked to the input with
 * aria-describedby, the input marked aria-invalid); `fieldError(field, null)` clears it.
 * @param {Field} wrap
 * @param {string | null} message
 */
export function fieldError(wrap, message) {
  const input = wrap.input;
  const id = `${input.id}-error`;
  wrap.querySelector(':scope > .field-error')?.remove();
  const described = (input.getAttribute('aria-describedby') || '').split(' ').filter((d) => d && d !== id);
  if (!message) {
    input.removeAttribute('aria-invalid');
    if (described.length) input.setAttribute('aria-describedby', described.join(' '));
    else input.removeAttribute('aria-describedby');
    return null;
  }
  const box = h('p', { className: 'field-error', id, role: 'alert' }, message);
  wrap.append(box);
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', [...described, id].join(' '));
  return box;
}

/**
 * Shows a screen model's refusal (screens/refusals.js) where the user acted: under the field it
 * names, which gets the focus (`'code'`: on the SMS code step, `code.refuse`), else in `box`.
 * Returns the field's name, or null when the refusal went to `box`.
 * @param {any} error
 * @param {{box: Element, fields?: Record<string, Field>, code?: {refuse: (message: string) => void}}} where
 * @returns {string | null}
 */
export function showRefusal(error, { box, fields = {}, code }) {
  const name = error && typeof error.field === 'string' ? error.field : null;
  if (name === 'code' && code) {
    code.refuse(error.message);
    return name;
  }
  if (name && fields[name]) {
    fieldError(fields[name], error.message);
    fields[name].input.focus();
    return name;
  }
  showError(box, error);
  return null;
}

/**
 * A PIN input (digits only, masked, 4 to 6 digits).
 * @param {string} label
 * @param {Record<string, any>} [attrs]
 */
export function pinField(label, attrs = {}) {
  return field(label, {
    type: 'password', inputMode: 'numeric', pattern: '[0-9]{4,6}', minLength: 4, maxLength: 6,
    autocomplete: 'off', required: true, ...attrs,
  });
}

/**
 * A button. `kind`: 'primary' (default), 'secondary', 'danger', 'link'.
 * @param {string} text
 * @param {(event: Event) => void} [onClick]
 * @param {Record<string, any>} [attrs]
 */
export function button(text, onClick, attrs = {}) {
  const { kind = 'primary', ...rest } = attrs;
  return h('button', { type: 'button', className: `btn ${kind}`, ...rest, on: onClick ? { click: onClick } : undefined }, text);
}

let confirmCount = 0;

/**
 * Asks before an action that moves money or cannot be undone: a panel in `container` saying what
 * will happen (`message`, e.g. with the amount), with a button that does it (`confirm`, naming the
 * action) and one that does not. Resolves true or false; the panel is gone either way, and focus
 * goes to the confirm button first, then back to `returnTo` after a cancel.
 * @param {Element} container
 * @param {{message: any, confirm: string, cancel?: string, id?: string, kind?: string, returnTo?: HTMLElement | null}} opts
 * @returns {Promise<boolean>}
 */
export function confirmStep(container, { message, confirm, cancel = 'Cancel', id, kind = 'primary', returnTo = null }) {
  container.querySelectorAll(':scope > .confirm-step').forEach((e) => e.remove());
  const base = id || `confirm${++confirmCount}`;
  return new Promise((resolve) => {
    const finish = (/** @type {boolean} */ answer) => {
      panel.remove();
      if (!answer) returnTo?.focus();
      resolve(answer);
    };
    const yes = button(confirm, () => finish(true), { kind, id: `${base}-yes`, 'aria-describedby': `${base}-message` });
    const no = button(cancel, () => finish(false), { kind: 'secondary', id: `${base}-no` });
    const panel = h('div', { className: 'confirm-step', id: base, role: 'group', 'aria-labelledby': `${base}-message` },
      h('p', { id: `${base}-message`, className: 'confirm-message' }, message),
      h('div', { className: 'row' }, yes, no));
    panel.addEventListener('keydown', (event) => {
      if (/** @type {KeyboardEvent} */ (event).key === 'Escape') finish(false);
    });
    container.append(panel);
    yes.focus();
  });
}

/**
 * A link to an app route.
 * @param {string} path e.g. '/market'
 * @param {string} text
 * @param {Record<string, any>} [attrs]
 */
export function link(path, text, attrs = {}) {
  return h('a', { href: `#${path}`, ...attrs }, text);
}

/**
 * "22 Jan 2024, 10:30" in the user's time zone.
 * @param {string | number | Date} when
 */
export function dateTime(when) {
  const d = new Date(when);
  if (Number.isNaN(d.getTime())) return String(when);
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * "4:59" from seconds.
 * @param {number} seconds
 */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * "in 14 minutes" / "in 30 seconds".
 * @param {number} seconds
 */
export function inDuration(seconds) {
  const s = Math.max(1, Math.round(seconds));
  if (s < 90) return `in ${s} second${s === 1 ? '' : 's'}`;
  const m = Math.round(s / 60);
  if (m < 90) return `in ${m} minute${m === 1 ? '' : 's'}`;
  const hours = Math.round(m / 60);
  return `in ${hours} hour${hours === 1 ? '' : 's'}`;
}

/**
 * A definition list from [term, value] pairs (values may be nodes); null or false rows are left out.
 * @param {Array<[string, any] | null | false | undefined>} rows
 * @param {Record<string, any>} [attrs]
 */
export function details(rows, attrs = {}) {
  return h('dl', { className: 'details', ...attrs }, /** @type {Array<[string, any]>} */ (rows.filter(Boolean)).map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

/**
 * A data table: a header row from `columns`, one row per item of `rows` (`cells` are strings or
 * nodes, `attrs` the row's attributes). Each cell carries its column's name in `data-label`, so on a
 * phone the rows stack as cards that still say what each value is (app.css); `empty` is shown in
 * one full-width row when there are no rows.
 * @param {{id?: string, caption?: string, columns: Array<string | [string, string]>,
 *   rows: Array<{attrs?: Record<string, any>, cells: any[]}>, empty?: string}} spec
 *   a column is its heading, or [heading, class] (e.g. 'num' for right-aligned amounts)
 */
export function table({ id, caption, columns, rows, empty = 'Nothing yet.' }) {
  const cols = columns.map((c) => (Array.isArray(c) ? c : [c, '']));
  const body = rows.length
    ? rows.map((r) => h('tr', r.attrs ?? null, r.cells.map((cell, i) =>
      h('td', { 'data-label': cols[i][0], className: cols[i][1] || undefined }, cell))))
    : h('tr', { className: 'empty' }, h('td', { colSpan: cols.length, className: 'muted' }, empty));
  return h('div', { className: 'table-wrap' },
    h('table', { className: 'data', id },
      caption ? h('caption', { className: 'visually-hidden' }, caption) : null,
      h('thead', null, h('tr', null, cols.map(([label, cls]) => h('th', { scope: 'col', className: cls || undefined }, label)))),
      h('tbody', null, body)));
}

/**
 * A screen section (card).
 * @param {...any} children
 */
export function card(...children) {
  return h('section', { className: 'card' }, ...children);
}
