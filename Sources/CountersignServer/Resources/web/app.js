// @ts-check
/**
 * app.js: the Countersign web app's shell: session, soft lock, header and hash router.
 *
 * ## The shell contract (what screen modules code against)
 *
 * Routing is by hash: `#/path/segments?query`. `navigate('/market?x=1')` sets the hash.
 *
 * A route is
 *   { path: '/market/products/:id', title: 'Product', auth: true,
 *     render: async (view, params, query, app) => cleanup? }
 * - `path`: segments, `:name` matches one segment (decoded) into `params.name`.
 * - `title`: the screen's name; the shell sets `document.title`, and if `render` leaves no <h1> in
 *   `view` it adds one (use `app.ui.setTitle(view, text)` to set your own; it also moves focus).
 * - `auth`: true if the screen needs a signed-in user; the shell sends others to sign in first
 *   (and back afterwards), and shows the soft lock first when the browser session is not unlocked.
 * - `render(view, params, query, app)`: fill `view` (the `<main>` element, emptied before each
 *   route); `query` is a URLSearchParams. It may return (or resolve to) a cleanup function, called
 *   when the user leaves the route (stop timers, close streams, abort WebAuthn requests).
 *   A thrown error is shown in the view with `ui.showError`.
 *
 * `app` = { api, navigate(path), ui, user, refreshUser(), signOut(), signedIn() }:
 * - `api`: a `Countersign` client (countersign.js) using the session cookie. A 401
 *   `unauthenticated` from any call signs the app out and shows the sign-in screen.
 * - `navigate(path)`: go to a route (`'/market'`); `navigate(path, {replace: true})` replaces history.
 * - `ui`: the ui.js module (h, money, showError, busy, setTitle, field, …).
 * - `user`: the signed-in profile (`GET /user/profile`: userId, phone, name, isMerchant,
 *   addresses, isOperator) or null; the nav's operator link shows only for operators. `refreshUser()` reloads it.
 * - `signedIn(next, accountPin)`: after a sign-in or sign-up, on to `next` (by the unlock code's setup the first time).
 *
 * Routes come from ./screens/*.js and from ./market/routes.js (`export const routes = [...]`, loaded
 * with a dynamic import before the first route is shown).
 *
 * Checkout returns: a payment provider sends the payer back to
 * `/?checkout=<orderId>&payment_intent=…&redirect_status=…`; on load the shell replaces that URL
 * with `#/market/orders/<orderId>/return?payment_intent=…&redirect_status=…`.
 * @module app
 */
import { Countersign, CountersignError } from './countersign.js';
import * as ui from './ui.js';
import * as lock from './screens/lock-model.js';
import * as lockScreen from './screens/lock.js';
import { routes as authRoutes } from './screens/auth.js';
import { routes as homeRoutes } from './screens/home.js';
import { routes as keyRoutes } from './screens/keys.js';
import { routes as airtimeRoutes } from './screens/airtime.js';
import { routes as sendRoutes } from './screens/send.js';
import { routes as operatorRoutes } from './screens/operator.js';
import { routes as webhookRoutes } from './screens/webhooks.js';
import { routes as recoverRoutes } from './screens/recover.js';
import { routes as securityRoutes } from './screens/security.js';
import { routes as addMoneyRoutes } from './screens/add-money.js';
import { routes as limitsRoutes } from './screens/limits.js';

/** @typedef {{path: string, title: string, auth?: boolean, render: Function}} Route */

/** The API client; a session that ends on the server signs the app out. */
class AppClient extends Countersign {
  /** @type {(() => void) | null} */
  onSignedOut = null;

  /** @type {Countersign['request']} */
  async request(method, path, options) {
    try {
      return await super.request(method, path, options);
    } catch (error) {
      if (error instanceof CountersignError && error.status === 401 && error.code === 'unauthenticated'
        && !path.startsWith('/auth/')) {
        this.onSignedOut?.();
      }
      throw error;
    }
  }
}

const api = new AppClient();
const view = /** @type {HTMLElement} */ (document.getElementById('view'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));

/** @type {Route[]} */
const allRoutes = [...authRoutes, ...recoverRoutes, ...lockScreen.routes, ...homeRoutes, ...keyRoutes, ...securityRoutes, ...limitsRoutes,
  ...airtimeRoutes, ...sendRoutes, ...operatorRoutes, ...webhookRoutes, ...addMoneyRoutes];

/**
 * The marketplace's routes, loaded on their own so that a marketplace module that fails to load
 * leaves the wallet screens working (its screens then answer "not found").
 */
async function loadMarketRoutes() {
  try {
    const market = await import('./market/routes.js');
    allRoutes.push(...(market.routes || []));
  } catch {
    // Without the marketplace the rest of the app still works.
  }
}

/** @type {{api: AppClient, navigate: typeof navigate, ui: typeof ui, user: any, refreshUser: typeof refreshUser,
 *   signOut: typeof signOut, signedIn: typeof signedIn}} */
const app = { api, navigate, ui, user: null, refreshUser, signOut, signedIn };

/**
 * Goes to an app route.
 * @param {string} path e.g. '/market' or '/send/tr_1?x=y'
 * @param {{replace?: boolean}} opts
 */
function navigate(path, { replace = false } = {}) {
  const hash = '#' + (path.startsWith('/') ? path : '/' + path);
  if (location.hash === hash) {
    route();
  } else if (replace) {
    history.replaceState(history.state, '', hash);
    route();
  } else {
    location.hash = hash;
  }
}

/*
 * The session itself is an HttpOnly cookie this page cannot read. This flag (no secret) only says
 * "a session was started in this browser", so a signed-out visit does not ask the server (and
 * log a 401 in the console) just to learn that nobody is signed in.
 */
const SESSION_HINT = 'countersign.hasSession';

/**
 * Loads the signed-in user (null when signed out).
 * @param {{ask?: boolean}} opts ask the server even without the hint
 */
async function refreshUser({ ask = false } = {}) {
  if (!ask && !localStorage.getItem(SESSION_HINT)) {
    app.user = null;
    updateNav();
    return null;
  }
  try {
    app.user = await api.profile();
    localStorage.setItem(SESSION_HINT, '1');
  } catch (error) {
    if (error instanceof CountersignError && error.status === 401) {
      app.user = null;
      localStorage.removeItem(SESSION_HINT);
    } else throw error;
  }
  updateNav();
  return app.user;
}

/**
 * After sign-up or sign-in in this tab: load the profile, count this browser session as unlocked
 * (the user just authenticated), and set up the local PIN if this browser has none for them.
 * @param {string} [next] where to go afterwards
 * @param {string} [accountPin] the account PIN just typed, if any: the unlock code set next must differ
 */
async function signedIn(next = '/', accountPin = '') {
  await refreshUser({ ask: true });
  if (!app.user) throw new CountersignError(401, 'unauthenticated', 'The session did not start. Are cookies enabled?');
  lock.markUnlocked(app.user.userId);
  if (!lock.hasLocalPin(app.user.userId)) {
    lock.noteAccountPin(accountPin);
    navigate(`/lock/setup?next=${encodeURIComponent(next)}`, { replace: true });
  } else {
    navigate(next, { replace: true });
  }
}

/** Ends the session here and on the server. */
async function signOut() {
  try {
    await api.logout();
  } catch {
    // Signed out already, or offline: the local state is cleared either way.
  }
  lock.clearUnlocked();
  localStorage.removeItem(SESSION_HINT);
  app.user = null;
  updateNav();
  navigate('/signin');
}

api.onSignedOut = () => {
  localStorage.removeItem(SESSION_HINT);
  if (!app.user) return;
  app.user = null;
  lock.clearUnlocked();
  updateNav();
  navigate(`/signin?expired=1`);
};

function updateNav() {
  nav.hidden = !app.user;
  for (const a of nav.querySelectorAll('[data-operator]')) {
    /** @type {HTMLElement} */ (a).hidden = !app.user?.isOperator;
  }
  const current = location.hash.replace(/^#/, '').split('?')[0] || '/';
  for (const a of nav.querySelectorAll('a')) {
    const target = (a.getAttribute('href') || '').replace(/^#/, '');
    const active = target === '/' ? current === '/' : current === target || current.startsWith(target + '/');
    if (active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/**
 * @param {string} pattern
 * @param {string} path
 * @returns {Record<string, string> | null}
 */
function match(pattern, path) {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  /** @type {Record<string, string>} */
  const params = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) {
      try {
        params[p[i].slice(1)] = decodeURIComponent(s[i]);
      } catch {
        return null;
      }
    } else if (p[i] !== s[i]) {
      return null;
    }
  }
  return params;
}

/** @type {(() => void) | null} */
let cleanup = null;
let generation = 0;

function runCleanup() {
  const fn = cleanup;
  cleanup = null;
  if (typeof fn === 'function') {
    try {
      fn();
    } catch {
      // A screen's cleanup must not stop the next screen.
    }
  }
}

/** Renders the route in the hash. */
async function route() {
  const mine = ++generation;
  runCleanup();
  lockScreen.abortGesture();
  const raw = location.hash.replace(/^#/, '') || '/';
  const [pathPart, queryPart = ''] = raw.split('?');
  const path = pathPart || '/';
  const query = new URLSearchParams(queryPart);
  updateNav();

  /** @type {Route | undefined} */
  let found;
  /** @type {Record<string, string>} */
  let params = {};
  for (const r of allRoutes) {
    const m = match(r.path, path);
    if (m) {
      found = r;
      params = m;
      break;
    }
  }
  view.replaceChildren();
  view.className = '';
  document.body.classList.remove('locked');
  if (!found) {
    ui.setTitle(view, 'Page not found');
    view.append(ui.h('p', null, 'There is nothing at this address. '), ui.link('/', 'Go to the dashboard'));
    return;
  }
  if (found.auth && !app.user) {
    navigate(`/signin?next=${encodeURIComponent(raw)}`, { replace: true });
    return;
  }
  if (found.auth && app.user && !lock.isUnlocked(app.user.userId)) {
    view.className = 'screen-lock';
    document.body.classList.add('locked');
    const done = await lockScreen.renderLock(view, app);
    if (mine !== generation) return;
    if (done === 'unlocked') route();
    return;
  }
  if (found.title) document.title = `${found.title} · Countersign`;
  view.className = `screen-${found.path.split('/').filter((s) => s && !s.startsWith(':')).join('-') || 'home'}`;
  try {
    const result = await found.render(view, params, query, app);
    if (mine !== generation) {
      if (typeof result === 'function') result();
      return;
    }
    cleanup = typeof result === 'function' ? result : null;
    if (!view.querySelector('h1')) ui.setTitle(view, found.title);
    else if (!view.contains(document.activeElement)) {
      const h1 = /** @type {HTMLElement} */ (view.querySelector('h1'));
      h1.tabIndex = -1;
      h1.focus();
    }
  } catch (error) {
    if (mine !== generation) return;
    if (!view.querySelector('h1')) ui.setTitle(view, found.title);
    ui.showError(view, error);
  }
}

/** A provider's return to `/?checkout=…` (or `/?funding=return`) becomes the app's return route. */
function handleCheckoutReturn() {
  const search = new URLSearchParams(location.search);
  if (search.get('funding') === 'return') {
    history.replaceState(null, '', `${location.pathname}#/add-money/return`);
    return;
  }
  const orderId = search.get('checkout');
  if (!orderId) return;
  const back = new URLSearchParams();
  for (const key of ['payment_intent', 'redirect_status']) {
    const value = search.get(key);
    if (value !== null) back.set(key, value);
  }
  const q = back.toString();
  history.replaceState(null, '', `${location.pathname}#/market/orders/${encodeURIComponent(orderId)}/return${q ? '?' + q : ''}`);
}

/**
 * The server's WebAuthn relying party and its own origin are `localhost` by default; a page opened
 * as http://127.0.0.1 can neither use passkeys (an IP address cannot be a relying party id) nor
 * pass the server's Origin check. Go to the same place by name.
 * @returns {boolean} whether the page is leaving
 */
function preferLocalhostName() {
  if (location.hostname !== '127.0.0.1' && location.hostname !== '[::1]') return false;
  const url = new URL(location.href);
  url.hostname = 'localhost';
  location.replace(url.toString());
  return true;
}

async function start() {
  if (preferLocalhostName()) return;
  handleCheckoutReturn();
  document.getElementById('signout')?.addEventListener('click', () => {
    signOut();
  });
  window.addEventListener('hashchange', () => {
    route();
  });
  lockScreen.keepUnlockedFresh(() => {
    if (app.user && !lock.isUnlocked(app.user.userId)) route();
  });
  try {
    await Promise.all([refreshUser(), loadMarketRoutes()]);
  } catch (error) {
    ui.setTitle(view, 'Countersign');
    ui.showError(view, error);
    return;
  }
  await route();
}

start();
