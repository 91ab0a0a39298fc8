// @ts-check
/**
 * Device keys: enrol a passkey, list the user's keys, revoke one. The step-up is the PIN (alone
 * only soon after a code opened the session; else with a `bind-device` code, and the key then
 * starts in a cooling-off with a payment limit) or a signature from a key the user has.
 */
import * as ui from '../ui.js';
import * as lock from './lock-model.js';
import { secureConfirmation } from './sign.js';
import { codeStep } from './code-step.js';
import { CODE_ERRORS } from './phone-code.js';

const { h } = ui;

const ALGORITHMS = /** @type {Record<string, string>} */ ({
  '-7': 'ES256', '-8': 'EdDSA', '-35': 'ES384', '-36': 'ES512', '-257': 'RS256',
});

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} query
 * @param {any} app
 */
async function renderKeys(view, _params, query, app) {
  ui.setTitle(view, 'Device keys');
  const userId = app.user.userId;
  const list = h('ul', { className: 'list', id: 'keys' });
  const none = h('p', { className: 'muted', id: 'no-keys', hidden: true },
    'No device keys yet. Add a passkey to pay with your fingerprint, face or screen lock.');
  const cooling = h('p', { className: 'warn-box', id: 'keys-cooling', role: 'status', hidden: true });
  const listCard = h('section', { className: 'card', 'aria-labelledby': 'keys-h' }, h('h2', { id: 'keys-h' }, 'Your keys'),
    cooling, list, none,
    h('p', null, ui.link('/security', 'Security: your number, remembered devices and activity', { id: 'to-security' })));

  const pin = ui.pinField('Your account PIN', { id: 'enrol-pin', autocomplete: 'current-password', hint: 'Adding a key needs your PIN, so a stolen session cannot add one.' });
  const enrolButton = h('button', { type: 'submit', className: 'btn primary', id: 'enrol-submit' }, 'Add a passkey');
  // Shown when the server wants a code with the PIN (the session is not a fresh one a code opened).
  const code = codeStep(app, {
    id: 'enrol-sms', purpose: 'bind-device', phone: () => app.user.phone,
    intro: `Adding a key with your PIN needs a code sent to your number (${app.user.phone}) as well.`,
  });
  const codeBox = h('div', { className: 'code-box', hidden: true }, code.element);
  const enrolForm = h('form', { className: 'card', id: 'enrol-form', novalidate: true, 'aria-labelledby': 'enrol-h' },
    h('h2', { id: 'enrol-h' }, 'Add a passkey on this device'), pin, codeBox, enrolButton);
  const withKey = ui.button('Use an existing passkey instead of the PIN', () => enrol(null, withKey), { kind: 'link', id: 'enrol-with-key', hidden: true });
  enrolForm.append(withKey);
  view.append(listCard, enrolForm);
  if (query.get('next')) {
    ui.showNotice(view, 'Add a passkey first: payments and transfers are signed with it.');
  }
  if (!window.PublicKeyCredential) {
    enrolForm.replaceChildren(h('h2', null, 'Add a passkey'), h('p', null, 'This browser does not support passkeys. You can still pay with your PIN.'));
  }

  /** @type {any} */
  let security = null;

  async function load() {
    const [{ credentials }, found] = await Promise.all([
      app.api.credentials(), app.api.accountSecurity().catch(() => null),
    ]);
    security = found;
    lock.keepCredentials(userId, credentials.map((/** @type {any} */ c) => c.id));
    const here = lock.localCredentials(userId);
    list.replaceChildren(...credentials.map((/** @type {any} */ c) => keyRow(c, here.includes(c.id))));
    const newest = credentials.map((/** @type {any} */ c) => c.coolingOffUntil).filter(Boolean).sort().pop();
    cooling.hidden = !newest;
    cooling.textContent = newest
      ? `A key added with your PIN and a code is new until ${ui.dateTime(newest)}: `
        + (security ? `it pays at most ${ui.money(security.newDeviceMaxAmount, security.currency)} at once, and ` : '')
        + 'no other key can be added with the PIN and a code until then.'
      : '';
    none.hidden = credentials.length > 0;
    withKey.hidden = credentials.length === 0;
  }

  /** @param {any} c @param {boolean} onThisDevice */
  function keyRow(c, onThisDevice) {
    const status = h('div', { className: 'key-actions' });
    const row = h('li', { className: 'key', dataset: { id: c.id } },
      h('div', { className: 'tx-main' },
        h('div', { className: 'key-name' }, `${c.backupEligible ? 'Synced passkey' : 'Device-bound key'} · ${ALGORITHMS[String(c.algorithm)] || `alg ${c.algorithm}`}`),
        h('div', { className: 'tx-sub' }, `Added ${ui.dateTime(c.createdAt)}`, c.lastUsedAt ? ` · last used ${ui.dateTime(c.lastUsedAt)}` : ''),
        h('div', null,
          onThisDevice ? h('span', { className: 'badge here' }, 'This device') : null,
          c.flagged ? h('span', { className: 'badge bad' }, 'Disabled by a security check') : null,
          c.coolingOffUntil ? h('span', { className: 'badge warn cooling' }, `New until ${ui.dateTime(c.coolingOffUntil)}`
            + (security ? ` · at most ${ui.money(security.newDeviceMaxAmount, security.currency)} a payment` : '')) : null,
          (c.transports || []).map((/** @type {string} */ t) => h('span', { className: 'badge' }, t)))),
      status);
    const revoke = ui.button('Revoke', () => confirmRevoke(), { kind: 'danger', className: 'btn danger small revoke', 'aria-label': `Revoke key added ${ui.dateTime(c.createdAt)}` });
    status.append(revoke);

    function confirmRevoke() {
      const yes = ui.button('Yes, revoke', async () => {
        try {
          await ui.busy(yes, app.api.revokeCredential(c.id));
          lock.forgetCredential(userId, c.id);
          ui.showNotice(view, 'Key revoked. It cannot authorize anything any more.');
          await load();
          /** @type {HTMLElement} */ (view.querySelector('h1')).focus();
        } catch (error) {
          ui.showError(listCard, error);
        }
      }, { kind: 'danger', className: 'btn danger small confirm-revoke' });
      const no = ui.button('Keep', () => {
        status.classList.remove('confirming');
        status.replaceChildren(revoke);
        revoke.focus();
      }, { kind: 'secondary', className: 'btn secondary small' });
      status.classList.add('confirming');
      status.replaceChildren(h('span', { className: 'muted' }, 'Revoke this key? It will authorize nothing more.'), yes, no);
      yes.focus();
    }
    return row;
  }

  /**
   * @param {string | null} pinValue
   * @param {HTMLElement} trigger
   */
  async function enrol(pinValue, trigger) {
    ui.showError(enrolForm, null);
    ui.showNotice(enrolForm, null);
    /** @type {{verificationId?: string, code?: string}} */
    let proof = {};
    if (pinValue && !codeBox.hidden) {
      const p = code.proof();
      if (!p) return;
      proof = p;
    }
    try {
      const result = await ui.busy(trigger, register(pinValue, proof));
      lock.rememberCredential(userId, result.credentialId);
      pin.input.value = '';
      if (!codeBox.hidden) {
        code.reset();
        codeBox.hidden = true;
      }
      ui.showNotice(enrolForm, 'Passkey added. You can now pay with it, and unlock the app with it on this device.');
      await load();
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e && e.code === 'phone_code_required') {
        codeBox.hidden = false;
        ui.showNotice(enrolForm, 'One more step: a code to your number, then add the passkey again.');
        /** @type {HTMLElement} */ (code.element.querySelector('button:not([hidden])'))?.focus();
        return;
      } else if (e && CODE_ERRORS.includes(e.code)) {
        code.refuse(ui.describeError(e));
        return;
      } else if (e && e.code === 'device_cooling_off') {
        ui.showError(enrolForm, Object.assign(new Error(`A device joined your account recently, so a passkey cannot be added yet${e.retryAfter ? `: it can ${ui.inDuration(e.retryAfter)}` : ''}. `
          + 'A passkey you already have can add this one at once.'), { code: e.code, traceId: e.traceId }));
      } else if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) {
        ui.showError(enrolForm, 'Adding the passkey was cancelled. Nothing was added.');
      } else if (e && e.name === 'InvalidStateError') {
        ui.showError(enrolForm, 'This device already holds one of your keys.');
      } else if (e && e.status === 423 && e.retryAfter) {
        ui.showError(enrolForm, Object.assign(new Error(`Too many wrong PINs. Try again ${ui.inDuration(e.retryAfter)}.`), { code: e.code, traceId: e.traceId }));
      } else {
        ui.showError(enrolForm, error);
      }
      pin.input.focus();
    }
  }

  /**
   * Registers a passkey; where the browser offers Secure Payment Confirmation, one usable with it
   * (and, if this device cannot make one, an ordinary passkey), unless a code steps up.
   * @param {string | null} pinValue
   * @param {{verificationId?: string, code?: string}} proof a `bind-device` code, if one was asked for
   */
  async function register(pinValue, proof) {
    const stepUp = pinValue ? { pin: pinValue, ...proof } : {};
    // A code is spent by the first creation options: with one there is no second try without the
    // payment extension, so a code binds an ordinary passkey.
    if (!proof.code && await secureConfirmation()) {
      try {
        return await app.api.registerPasskey({ ...stepUp, payment: true });
      } catch (error) {
        if (/** @type {any} */ (error)?.name !== 'NotSupportedError') throw error;
      }
    }
    return app.api.registerPasskey(stepUp);
  }

  enrolForm.addEventListener('submit', (event) => {
    event.preventDefault();
    ui.fieldError(pin, null);
    if (!/^[0-9]{4,6}$/.test(pin.input.value)) {
      ui.fieldError(pin, 'Enter your account PIN: 4 to 6 digits.');
      pin.input.focus();
      return;
    }
    enrol(pin.input.value, enrolButton);
  });

  await load();
  return () => code.stop();
}

export const routes = [{ path: '/keys', title: 'Device keys', auth: true, render: renderKeys }];
