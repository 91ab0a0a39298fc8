// @ts-check
/**
 * Device keys: the view of `DeviceKeys` (keys-model.js): the list with each key's revoke (asked
 * twice), and the enrol form with its PIN and, when the server asks, its `bind-device` code step.
 */
import * as ui from '../ui.js';
import { DeviceKeys } from './keys-model.js';
import { secureConfirmation } from './sign.js';
import { codeStep } from './code-step.js';

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

  const model = new DeviceKeys(app.api, {
    userId: app.user.userId,
    paymentPasskeys: secureConfirmation,
    onChange: (/** @type {any} */ state) => drawReady(state),
  });

  /** The keys, the cooling-off, the code step when needed, and what the last action did. @param {any} state */
  function drawReady({ credentials, here, security, coolingUntil, needsCode, done }) {
    if (done === 'revoked') ui.showNotice(view, 'Key revoked. It cannot authorize anything any more.');
    if (done === 'added') {
      pin.input.value = '';
      ui.showNotice(enrolForm, 'Passkey added. You can now pay with it, and unlock the app with it on this device.');
    }
    if (!needsCode && !codeBox.hidden) {
      code.reset();
      codeBox.hidden = true;
    }
    list.replaceChildren(...credentials.map((/** @type {any} */ c) => keyRow(c, here.includes(c.id), security)));
    cooling.hidden = !coolingUntil;
    cooling.textContent = coolingUntil
      ? `A key added with your PIN and a code is new until ${ui.dateTime(coolingUntil)}: `
        + (security ? `it pays at most ${ui.money(security.newDeviceMaxAmount, security.currency)} at once, and ` : '')
        + 'no other key can be added with the PIN and a code until then.'
      : '';
    none.hidden = credentials.length > 0;
    withKey.hidden = credentials.length === 0;
    if (done === 'revoked') /** @type {HTMLElement} */ (view.querySelector('h1')).focus();
    if (done === 'codeNeeded') {
      codeBox.hidden = false;
      ui.showNotice(enrolForm, 'One more step: a code to your number, then add the passkey again.');
      /** @type {HTMLElement} */ (code.element.querySelector('button:not([hidden])'))?.focus();
    }
  }

  /** @param {any} c @param {boolean} onThisDevice @param {any} security */
  function keyRow(c, onThisDevice, security) {
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
          await ui.busy(yes, model.revoke(c.id));
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

  /** @param {string | null} pinValue @param {HTMLElement} trigger */
  async function enrol(pinValue, trigger) {
    ui.showError(enrolForm, null);
    ui.showNotice(enrolForm, null);
    ui.fieldError(pin, null);
    try {
      await ui.busy(trigger, model.enrol(pinValue, () => code.proof()));
    } catch (error) {
      if (!ui.showRefusal(error, { box: enrolForm, fields: { pin }, code })) pin.input.focus();
    }
  }

  enrolForm.addEventListener('submit', (event) => {
    event.preventDefault();
    enrol(pin.input.value, enrolButton);
  });

  await model.load();
  return () => code.stop();
}

export const routes = [{ path: '/keys', title: 'Device keys', auth: true, render: renderKeys }];
