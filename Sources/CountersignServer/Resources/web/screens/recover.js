// @ts-check
/**
 * A forgotten PIN: the view of `PinReset` (recover-model.js): the number, its code step and the new
 * PIN, then until when PIN payments wait before going on.
 */
import * as ui from '../ui.js';
import { codeStep } from './code-step.js';
import { nextOf } from './auth-model.js';
import { PinReset } from './recover-model.js';

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

  const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
  const model = new PinReset(app.api, {
    refreshUser: () => app.refreshUser({ ask: true }),
    onChange: (/** @type {any} */ state) => drawDone(state),
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    for (const f of [pin, again]) ui.fieldError(f, null);
    try {
      await ui.busy(submit, model.reset({ proof: () => code.proof(), pin: pin.input.value, again: again.input.value }));
    } catch (error) {
      ui.showRefusal(error, { box: form, fields: { pin, again }, code });
    }
  });

  /** The new PIN is set and the user signed in: until when PIN payments wait. @param {{coolingUntil: string | null}} state */
  function drawDone({ coolingUntil }) {
    code.stop();
    const go = ui.button('Continue', () => app.signedIn(next, pin.input.value), { id: 'reset-continue' });
    view.replaceChildren();
    ui.setTitle(view, 'Your PIN is reset');
    view.append(h('section', { className: 'card', id: 'reset-done' },
      h('p', { className: 'ok-box', role: 'status' }, 'Your new PIN is set and you are signed in. Every other session has ended.'),
      coolingUntil
        ? h('p', { className: 'warn-box', id: 'reset-cooling' },
          `PIN payments wait until ${ui.dateTime(coolingUntil)}: the PIN was reset with a code only. `
          + 'Until then pay with a passkey, or wait.')
        : null,
      go));
    go.focus();
  }

  return () => code.stop();
}

export const routes = [{ path: '/forgot-pin', title: 'Reset your PIN', auth: false, render: renderForgotPin }];
