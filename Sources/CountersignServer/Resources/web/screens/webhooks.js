// @ts-check
/**
 * The operator console's webhooks: the endpoints that are told of every money movement, adding one
 * (with the operator's own PIN; its signing secret is shown once), each one's delivery log with
 * "Send again" per event, enabling one that three days of failures disabled, and removing one.
 * The server checks everything (403 `not_operator` for anyone else). The endpoints and their actions
 * are `WebhooksModel`'s (webhooks-model.js); this file draws them.
 */
import * as ui from '../ui.js';
import { WebhooksModel } from './webhooks-model.js';

const { h } = ui;

/**
 * `/operator/webhooks`.
 * @param {HTMLElement} view
 * @param {any} _params
 * @param {URLSearchParams} _query
 * @param {any} app
 */
async function renderWebhooks(view, _params, _query, app) {
  ui.setTitle(view, 'Webhooks');
  const url = ui.field('Receiver URL', {
    id: 'webhook-url', inputMode: 'url', autocomplete: 'off', placeholder: 'https://erp.example/hooks/countersign',
    hint: 'An https address outside this server\'s own network.',
  });
  const events = ui.field('Events', {
    id: 'webhook-events', autocomplete: 'off', value: '*',
    hint: '* for every event, or types separated by commas, e.g. transfer.completed, topup.completed.',
  });
  const pin = ui.pinField('Your account PIN', { id: 'webhook-pin', autocomplete: 'current-password' });
  const secret = h('p', { id: 'webhook-secret', role: 'status' });
  const addButton = h('button', { type: 'submit', className: 'btn primary', id: 'webhook-add' }, 'Add the endpoint');
  const addForm = h('form', { className: 'card wide', id: 'webhook-form', novalidate: true, 'aria-labelledby': 'webhook-add-h' },
    h('h2', { id: 'webhook-add-h' }, 'Add an endpoint'), url, events, pin, addButton, secret);
  const list = h('div', { id: 'webhook-list' });
  const listCard = h('section', { className: 'card wide', 'aria-labelledby': 'webhook-list-h' },
    h('h2', { id: 'webhook-list-h' }, 'Endpoints'), list);
  const log = h('div', { id: 'webhook-log' });
  const logCard = h('section', { className: 'card wide', 'aria-labelledby': 'webhook-log-h' },
    h('h2', { id: 'webhook-log-h' }, 'Delivery log'), log);
  view.append(h('div', { className: 'console-grid' }, addForm, listCard, logCard),
    h('p', null, ui.link('/operator', 'Back to the console')));

  const model = new WebhooksModel(app.api, { onChange: (state) => draw(state) });
  /** The state drawn last: only what changed is drawn again (the focus stays where it is). @type {any} */
  let drawn = {};

  /** @param {any} state */
  function draw(state) {
    if (state.notice !== drawn.notice) ui.showNotice(view, state.notice);
    if (state.secret !== drawn.secret) {
      if (state.secret) {
        pin.input.value = '';
        secret.replaceChildren('Added. Its signing secret, shown this once (copy it to the receiver now): ',
          h('code', { id: 'webhook-secret-value' }, state.secret));
      } else secret.textContent = '';
    }
    if (state.endpoints !== drawn.endpoints) drawList(state.endpoints);
    if (state.log !== drawn.log && state.log) drawLog(state.log);
    drawn = state;
  }

  /** @param {any[]} endpoints */
  function drawList(endpoints) {
    list.replaceChildren(ui.table({
      caption: 'Webhook endpoints',
      columns: ['URL', 'Events', 'State', ''],
      rows: endpoints.map((/** @type {any} */ e) => ({
        attrs: { className: 'webhook', dataset: { id: e.id } },
        cells: [e.url, e.events.join(', '),
          e.enabled
            ? h('span', { className: 'badge' }, e.failingSince ? `Failing since ${ui.dateTime(e.failingSince)}` : 'Enabled')
            : h('span', { className: 'badge bad' }, `Disabled ${ui.dateTime(e.disabledAt)}`),
          [ui.button('Delivery log', () => showLog(e.id), { className: 'btn secondary webhook-log' }),
            e.enabled ? null : ui.button('Enable', (/** @type {any} */ ev) => act(ev.currentTarget, () => model.enable(e.id)),
              { className: 'btn primary webhook-enable' }),
            ui.button('Remove', (/** @type {any} */ ev) => remove(ev.currentTarget, e), { className: 'btn secondary webhook-remove' })]],
      })),
      empty: 'No endpoints yet: nothing is sent.',
    }));
  }

  /** @param {{endpointId: string, attempts: any[]}} shown */
  function drawLog({ endpointId, attempts }) {
    log.replaceChildren(ui.table({
      caption: 'Delivery attempts, newest first',
      columns: ['When', 'Event', 'Answer', ['Time (ms)', 'num'], ''],
      rows: attempts.map((/** @type {any} */ a) => ({
        attrs: { className: 'attempt', dataset: { event: a.eventId } },
        cells: [ui.dateTime(a.attemptedAt), `${a.eventType} (${a.eventId})`,
          a.statusCode ? String(a.statusCode) : `No answer: ${a.error ?? 'unknown'}`, String(a.latencyMillis),
          ui.button('Send again', (/** @type {any} */ ev) => act(ev.currentTarget, () => model.redeliver(endpointId, a.eventId)),
            { className: 'btn secondary webhook-redeliver' })],
      })),
      empty: 'Nothing has been sent to this endpoint yet.',
    }));
  }

  /** @param {string} endpointId */
  async function showLog(endpointId) {
    ui.showError(logCard, null);
    try {
      await model.showLog(endpointId);
    } catch (error) {
      ui.showError(logCard, error);
    }
  }

  /** @param {HTMLElement} trigger @param {() => Promise<any>} action */
  async function act(trigger, action) {
    ui.showError(listCard, null);
    try {
      await ui.busy(trigger, action());
    } catch (error) {
      ui.showError(listCard, error);
    }
  }

  /** @param {HTMLElement} trigger @param {any} endpoint */
  async function remove(trigger, endpoint) {
    const sure = await ui.confirmStep(listCard, {
      id: 'webhook-remove-confirm', returnTo: trigger, confirm: 'Remove it', cancel: 'Keep it',
      message: `Stop sending events to ${endpoint.url}? Events not yet delivered to it are dropped.`,
    });
    if (!sure) return;
    await act(trigger, () => model.remove(endpoint.id));
  }

  const fields = { url, events, pin };
  addForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(addForm, null);
    for (const f of [url, events, pin]) ui.fieldError(f, null);
    try {
      await ui.busy(addButton, model.add({ url: url.input.value, events: events.input.value, pin: pin.input.value }));
    } catch (error) {
      ui.showRefusal(error, { box: addForm, fields });
    }
  });

  await model.load();
}

export const routes = [
  { path: '/operator/webhooks', title: 'Webhooks', auth: true, render: renderWebhooks },
];
