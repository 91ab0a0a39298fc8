// @ts-check
/**
 * A forgotten PIN: a code to the number sets a new one and signs in. With the code alone the server
 * holds PIN payments back for a cooling-off (a stolen SIM must not pay at once); the screen says
 * until when before going on.
 */
import * as ui from '../ui.js';
import { codeStep } from './code-step.js';
import { CODE_ERRORS } from './phone-code.js';
import { nextOf } from './auth-model.js';

const { h } = ui;

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} query
 * @param {any} app
 */
function renderForgotPin(view, _params, query, app) {
  if (app.user) {
    app.navigate('/security', { replace: true });
    return;
  }
  const next = nextOf(query);
  ui.setTitle(view, 'Reset your PIN');
  const phone = ui.field('Phone number', {
    id: 'reset-phone', type: 'tel', inputMode: 'tel', autocomplete: 'username', required: true, placeholder: '080 1234 5678',
    hint: 'The number of your account: we text a code to it.',
  });
  const details = h('div', { className: 'reset-details', hidden: true });
  const code = codeStep(app, {
    id: 'reset-sms', purpose: 'recover', phone: () => phone.input.value,
    onSent: () => {
      details.hidden = false;
    },
  });
  const pin = ui.pinField('New account PIN', {
    id: 'reset-pin', autocomplete: 'new-password', hint: '4 to 6 digits, not an easy one.',
  });
  const again = ui.pinField('Repeat the new account PIN', { id: 'reset-pin2', autocomplete: 'new-password' });
  details.append(
    h('p', { className: 'warn-box', id: 'reset-warning' },
      'After a reset by code, PIN payments wait until a cooling-off ends (passkey payments do not). '
      + 'Every other session of your account ends, and every remembered device is forgotten.'),
    pin, again, h('button', { type: 'submit', className: 'btn primary', id: 'reset-submit' }, 'Set the new PIN'));
  const form = h('form', { className: 'card', id: 'reset-form', novalidate: true }, phone, code.element, details);
  view.append(form, h('p', null, ui.link(`/signin?next=${encodeURIComponent(next)}`, 'Back to sign in')));
  phone.input.addEventListener('input', () => {
    if (code.sent) code.reset();
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    for (const f of [pin, again]) ui.fieldError(f, null);
    const proof = code.proof();
    if (!proof) return;
    if (!/^[0-9]{4,6}$/.test(pin.input.value)) return fail('The PIN must be 4 to 6 digits.', pin);
    if (pin.input.value !== again.input.value) return fail('The two PINs differ.', again);
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
    try {
      await ui.busy(submit, async () => {
        await app.api.resetPin({ ...proof, newPin: pin.input.value });
        const user = await app.refreshUser({ ask: true });
        if (user) app.lock.markUnlocked(user.userId);
        const security = await app.api.accountSecurity().catch(() => null);
        done(security);
      });
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e && CODE_ERRORS.includes(e.code)) code.refuse(ui.describeError(e));
      else if (e && (e.code === 'weak_pin' || e.code === 'invalid_pin')) fail(ui.describeError(e), pin);
      else ui.showError(form, error);
    }
    return undefined;
  });

  /** @param {string} message @param {ui.Field} f */
  function fail(message, f) {
    ui.fieldError(f, message);
    f.input.focus();
  }

  /** @param {any} security the account's security after the reset, if it could be read */
  function done(security) {
    code.stop();
    const until = security?.pinCoolingOffUntil;
    const go = ui.button('Continue', () => app.signedIn(next, pin.input.value), { id: 'reset-continue' });
    view.replaceChildren();
    ui.setTitle(view, 'Your PIN is reset');
    view.append(h('section', { className: 'card', id: 'reset-done' },
      h('p', { className: 'ok-box', role: 'status' }, 'Your new PIN is set and you are signed in. Every other session has ended.'),
      until
        ? h('p', { className: 'warn-box', id: 'reset-cooling' },
          `PIN payments wait until ${ui.dateTime(until)}: the PIN was reset with a code only. `
          + 'Until then pay with a passkey, or wait.')
        : null,
      go));
    go.focus();
  }

  return () => code.stop();
}

export const routes = [{ path: '/forgot-pin', title: 'Reset your PIN', auth: false, render: renderForgotPin }];
