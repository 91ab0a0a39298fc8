// @ts-check
/**
 * Security: the view of `SecurityScreen` (security-model.js): the account's number and PIN, the
 * remembered devices (each forgotten after a second click), recent activity, and the change of
 * number with its two code steps.
 */
import * as ui from '../ui.js';
import { codeStep } from './code-step.js';
import { SecurityScreen } from './security-model.js';

const { h } = ui;

/**
 * The account's state as lines for people.
 * @param {import('../countersign.js').AccountSecurity} s
 * @returns {Array<[string, any]>}
 */
export function securityRows(s) {
  /** @type {Array<[string, any]>} */
  const rows = [
    ['Number', h('span', { id: 'security-phone' }, s.phone)],
    ['Proven by a code', h('span', { id: 'security-verified' }, s.phoneVerified ? 'Yes' : 'Not yet: sign in with a code to prove it')],
  ];
  if (s.pinLockedUntil) rows.push(['PIN locked until', ui.dateTime(s.pinLockedUntil)]);
  if (s.pinResetRequired) rows.push(['PIN', 'Blocked: reset it with "Forgot PIN?"']);
  if (s.pinCoolingOffUntil) rows.push(['PIN payments wait until', h('span', { id: 'security-pin-cooling' }, ui.dateTime(s.pinCoolingOffUntil))]);
  if (s.deviceCoolingOffUntil) {
    rows.push(['New device until', h('span', { id: 'security-device-cooling' }, ui.dateTime(s.deviceCoolingOffUntil),
      h('span', { className: 'sub' }, `pays at most ${ui.money(s.newDeviceMaxAmount, s.currency)} at once`))]);
  }
  return rows;
}

/**
 * A device's name for people from the User-Agent the server kept: "Chrome on Linux".
 * @param {string} label
 */
export function deviceName(label) {
  const browser = [[/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrom(e|ium)\//, 'Chrome'],
    [/Safari\//, 'Safari']].find(([re]) => /** @type {RegExp} */ (re).test(label));
  const system = [[/Android/, 'Android'], [/iPhone|iPad|iOS/, 'iOS'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']].find(([re]) => /** @type {RegExp} */ (re).test(label));
  if (!browser && !system) return label;
  return [browser?.[1] ?? 'A browser', system ? `on ${system[1]}` : null].filter(Boolean).join(' ');
}

/**
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderSecurity(view, _params, _query, app) {
  ui.setTitle(view, 'Security');
  const state = h('div', { id: 'security-state', 'aria-live': 'polite' });
  const stateCard = h('section', { className: 'card', 'aria-labelledby': 'security-h' },
    h('h2', { id: 'security-h' }, 'Your number and PIN'), state);
  const deviceList = h('ul', { className: 'list', id: 'devices' });
  const devicesCard = h('section', { className: 'card', 'aria-labelledby': 'devices-h' },
    h('h2', { id: 'devices-h' }, 'Remembered devices'),
    h('p', { className: 'muted' }, 'These sign in with your PIN alone. Any other device needs a code sent to your number too.'),
    deviceList);
  const events = h('ul', { className: 'list', id: 'activity' });
  const activityCard = h('section', { className: 'card', 'aria-labelledby': 'activity-h' },
    h('h2', { id: 'activity-h' }, 'Recent activity'), events);
  const model = new SecurityScreen(app.api, {
    refreshUser: () => app.refreshUser(),
    signOut: () => app.signOut(),
    onChange: (/** @type {any} */ next) => screens[next.kind](next),
  });
  const change = changeNumberForm(app, model);
  view.append(stateCard, devicesCard, activityCard, change.element,
    h('p', null, ui.link('/keys', 'Device keys', { id: 'to-keys' }), ' · ',
      ui.link('/limits', 'Spending limits', { id: 'to-limits' })));

  /** The account, its devices and activity, and what the last action did. @param {any} ready */
  function drawReady({ security, devices, events: activity, done, phone }) {
    if (done === 'deviceForgotten') ui.showNotice(devicesCard, 'Device forgotten and signed out. It needs a code to sign in again.');
    if (done === 'numberChanged') change.changed(phone);
    state.replaceChildren(ui.details(securityRows(security)));
    deviceList.replaceChildren(...devices.map(deviceRow));
    if (!devices.length) deviceList.append(h('li', { className: 'muted' }, 'None.'));
    events.replaceChildren(...activity.map((/** @type {any} */ e) => h('li', { className: 'event', dataset: { kind: e.kind } },
      h('div', { className: 'tx-main' }, h('div', null, e.detail), h('div', { className: 'tx-sub' }, ui.dateTime(e.at))))));
    if (!activity.length) events.append(h('li', { className: 'muted' }, 'Nothing yet.'));
  }

  /** @type {Record<string, (state: any) => void>} */
  const screens = { ready: drawReady, signedOut: () => {} };

  /** @param {any} d */
  function deviceRow(d) {
    const actions = h('div', { className: 'key-actions' });
    const row = h('li', { className: 'key device', dataset: { id: d.id } },
      h('div', { className: 'tx-main' },
        h('div', { className: 'key-name', title: d.label }, deviceName(d.label)),
        h('div', { className: 'tx-sub' }, `First seen ${ui.dateTime(d.createdAt)} · last used ${ui.dateTime(d.lastUsedAt)}`),
        d.current ? h('span', { className: 'badge here' }, 'This device') : null),
      actions);
    const forget = ui.button('Forget', () => confirm(), {
      kind: 'danger', className: 'btn danger small forget', 'aria-label': `Forget the device first seen ${ui.dateTime(d.createdAt)}`,
    });
    actions.append(forget);

    function confirm() {
      const yes = ui.button('Yes, forget it', async () => {
        try {
          await ui.busy(yes, model.forgetDevice(d));
        } catch (error) {
          ui.showError(devicesCard, error);
        }
      }, { kind: 'danger', className: 'btn danger small confirm-forget' });
      const no = ui.button('Keep', () => {
        actions.classList.remove('confirming');
        actions.replaceChildren(forget);
        forget.focus();
      }, { kind: 'secondary', className: 'btn secondary small' });
      actions.classList.add('confirming');
      actions.replaceChildren(h('span', { className: 'muted' },
        d.current ? 'Forget this device? You are signed out here.' : 'Forget this device? It is signed out.'), yes, no);
      yes.focus();
    }
    return row;
  }

  await model.load();
  return () => change.stop();
}

/**
 * The change of number: a code to the new number, and the step-up (PIN and a code to the current one).
 * @param {any} app @param {SecurityScreen} model
 */
function changeNumberForm(app, model) {
  const phone = ui.field('New phone number', {
    id: 'change-phone', type: 'tel', inputMode: 'tel', autocomplete: 'tel', required: true, placeholder: '080 1234 5678',
  });
  const newCode = codeStep(app, {
    id: 'change-new-sms', purpose: 'change-phone', phone: () => phone.input.value, label: 'Code sent to the new number',
    sendLabel: 'Send a code to the new number',
  });
  const pin = ui.pinField('Your account PIN', { id: 'change-pin', autocomplete: 'current-password' });
  const oldCode = codeStep(app, {
    id: 'change-old-sms', purpose: 'change-phone', phone: () => app.user.phone, label: 'Code sent to your current number',
    sendLabel: 'Send a code to your current number',
    intro: 'To be sure it is you, a code goes to the number the account has now as well.',
  });
  const submit = h('button', { type: 'submit', className: 'btn primary', id: 'change-submit' }, 'Change number');
  const form = h('form', { className: 'card', id: 'change-form', novalidate: true, 'aria-labelledby': 'change-h' },
    h('h2', { id: 'change-h' }, 'Change number'),
    h('p', { className: 'muted' }, 'Money sent to your old number stops reaching this account.'),
    phone, newCode.element, pin, oldCode.element, submit);
  phone.input.addEventListener('input', () => {
    if (newCode.sent) newCode.reset();
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(form, null);
    ui.fieldError(pin, null);
    try {
      await ui.busy(submit, model.changeNumber({ newCode: () => newCode.proof(), pin: pin.input.value, oldCode: () => oldCode.proof() }));
    } catch (error) {
      if (!ui.showRefusal(error, { box: form, fields: { pin } })) submit.focus();
    }
  });

  return {
    element: form,
    /** The number changed: the form empties, saying to which. @param {string} to */
    changed(to) {
      pin.input.value = '';
      phone.input.value = '';
      newCode.reset();
      oldCode.reset();
      ui.showNotice(form, `Your account now uses ${to}.`);
    },
    stop() {
      newCode.stop();
      oldCode.stop();
    },
  };
}

export const routes = [{ path: '/security', title: 'Security', auth: true, render: renderSecurity }];
