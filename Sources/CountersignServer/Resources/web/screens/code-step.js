// @ts-check
/**
 * code-step.js: the view of one SMS code (its model is phone-code.js): "Send code", where it went,
 * the code field, a resend button that waits `resendAfter`, and in test mode the simulated code.
 * Screens put `step.element` in their form and read `step.proof()` when they submit.
 * @module code-step
 */
import * as ui from '../ui.js';
import { PhoneCode } from './phone-code.js';

const { h } = ui;

/**
 * @param {any} app
 * @param {{id: string, purpose: import('../countersign.js').VerificationPurpose, phone: () => string,
 *   label?: string, intro?: string, sendLabel?: string, onSent?: () => void}} options
 *   `phone()` is the number to send to, read when the button is pressed.
 */
export function codeStep(app, { id, purpose, phone, label = 'Code from the SMS', intro, sendLabel = 'Send code', onSent }) {
  const send = ui.button(sendLabel, () => start(), { kind: 'secondary', id: `${id}-send` });
  const sent = h('p', { className: 'hint code-sent', id: `${id}-sent`, role: 'status' });
  const simulated = h('output', { id: `${id}-sim-code`, className: 'sim-code' });
  const testNote = h('p', { className: 'warn-box test-mode', id: `${id}-sim`, hidden: true },
    'Test mode: the code is shown here. ', simulated);
  const code = ui.field(label, {
    id: `${id}-code`, inputMode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxLength: 6,
    required: true, placeholder: '6 digits',
  });
  const resend = ui.button('Resend code', () => start(), { kind: 'link', id: `${id}-resend`, className: 'btn link small' });
  const entry = h('div', { className: 'code-entry', hidden: true }, code, resend);
  const element = h('div', { className: 'code-step', id },
    intro ? h('p', { className: 'hint', id: `${id}-intro` }, intro) : null, send, sent, testNote, entry);

  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  const model = new PhoneCode(app.api, { purpose, onChange: render });

  async function start() {
    ui.showError(element, null);
    ui.fieldError(code, null);
    const number = phone().trim();
    if (!number) {
      ui.showError(element, 'Enter the phone number first.');
      return;
    }
    // An old code goes before the new one is asked for: the SMS can arrive (and be typed) before the
    // request settles, and clearing the field then would throw the new code away.
    code.input.value = '';
    const state = await ui.busy(model.state.kind === 'sent' ? resend : send, model.send(number));
    if (state.kind === 'sent') {
      tick(); // the busy button was enabled again on the way out: the resend still waits
      if (!code.input.value) code.input.focus();
      onSent?.();
    }
  }

  /** @param {import('./phone-code.js').CodeState} state */
  function render(state) {
    if (state.kind === 'failed') {
      const e = state.error;
      ui.showError(element, e && e.status === 429 && e.retryAfter
        ? Object.assign(new Error(`Too many codes asked for. Try again ${ui.inDuration(e.retryAfter)}.`), { code: e.code, traceId: e.traceId })
        : e);
      return;
    }
    const isSent = state.kind === 'sent';
    send.hidden = isSent;
    entry.hidden = !isSent;
    if (isSent) {
      sent.textContent = `We sent a 6-digit code by SMS to ${state.phone}. It works for ${Math.max(1, Math.round(state.expiresIn / 60))} minutes.`;
      testNote.hidden = !state.simulated;
      simulated.textContent = state.simulated ?? '';
      tick();
      if (!timer) timer = setInterval(tick, 1000);
    } else if (state.kind === 'idle') {
      sent.textContent = '';
      testNote.hidden = true;
      stopTimer();
    }
  }

  function tick() {
    const wait = model.resendIn();
    resend.disabled = wait > 0;
    resend.textContent = wait > 0 ? `Resend code in ${ui.clock(wait)}` : 'Resend code';
    if (wait === 0) stopTimer();
  }

  function stopTimer() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  return {
    element,
    /** The code field (`field.input` is the input). */
    field: code,
    /** Whether a code was sent. */
    get sent() {
      return model.state.kind === 'sent';
    },
    /**
     * `{verificationId, code}` for the request, or null (and an error shown on the field) when no
     * code was sent or the code is not 6 digits.
     */
    proof() {
      ui.fieldError(code, null);
      if (model.state.kind !== 'sent') {
        ui.showError(element, 'Send a code to the number first.');
        send.focus();
        return null;
      }
      const value = code.input.value.replace(/\s/g, '');
      if (!/^\d{6}$/.test(value)) {
        ui.fieldError(code, 'Enter the 6 digits of the code we sent.');
        code.input.focus();
        return null;
      }
      return model.proof(value);
    },
    /** Shows a refusal of the code (wrong, expired) on its field. @param {string} message */
    refuse(message) {
      ui.fieldError(code, message);
      code.input.focus();
    },
    /** Forgets the code (the number changed). */
    reset() {
      model.reset();
      code.input.value = '';
      ui.fieldError(code, null);
    },
    /** The screen is gone. */
    stop() {
      model.stop();
      stopTimer();
    },
  };
}
