// @ts-check
/**
 * The operator console's webhooks: the endpoints that are told of every money movement, adding one
 * (with the operator's own PIN; its signing secret is shown once), each one's delivery log with
 * "Send again" per event, enabling one that three days of failures disabled, and removing one.
 * The server checks everything (403 `not_operator` for anyone else).
 */
import * as ui from '../ui.js';

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

  async function loadList() {
    const { endpoints } = await app.api.operatorWebhooks();
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
            e.enabled ? null : ui.button('Enable', (/** @type {any} */ ev) => act(ev.currentTarget,
              () => app.api.operatorEnableWebhook(e.id), 'Enabled: events from now on are sent to it.'),
            { className: 'btn primary webhook-enable' }),
            ui.button('Remove', (/** @type {any} */ ev) => remove(ev.currentTarget, e), { className: 'btn secondary webhook-remove' })]],
      })),
      empty: 'No endpoints yet: nothing is sent.',
    }));
  }

  /** @param {string} endpointId */
  async function showLog(endpointId) {
    ui.showError(logCard, null);
    try {
      const { attempts } = await app.api.operatorWebhookDeliveries(endpointId);
      log.replaceChildren(ui.table({
        caption: 'Delivery attempts, newest first',
        columns: ['When', 'Event', 'Answer', ['Time (ms)', 'num'], ''],
        rows: attempts.map((/** @type {any} */ a) => ({
          attrs: { className: 'attempt', dataset: { event: a.eventId } },
          cells: [ui.dateTime(a.attemptedAt), `${a.eventType} (${a.eventId})`,
            a.statusCode ? String(a.statusCode) : `No answer: ${a.error ?? 'unknown'}`, String(a.latencyMillis),
            ui.button('Send again', (/** @type {any} */ ev) => act(ev.currentTarget,
              () => app.api.operatorRedeliverWebhook(endpointId, a.eventId), 'Queued: it is sent again within moments.'),
            { className: 'btn secondary webhook-redeliver' })],
        })),
        empty: 'Nothing has been sent to this endpoint yet.',
      }));
    } catch (error) {
      ui.showError(logCard, error);
    }
  }

  /** @param {HTMLElement} trigger @param {() => Promise<any>} call @param {string} done */
  async function act(trigger, call, done) {
    ui.showError(listCard, null);
    try {
      await ui.busy(trigger, call());
      ui.showNotice(view, done);
      await loadList();
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
    await act(trigger, () => app.api.operatorRemoveWebhook(endpoint.id), 'Removed: nothing more is sent there.');
  }

  addForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.showError(addForm, null);
    for (const f of [url, events, pin]) ui.fieldError(f, null);
    secret.textContent = '';
    const types = events.input.value.split(',').map((t) => t.trim()).filter(Boolean);
    if (!/^https?:\/\//i.test(url.input.value.trim())) {
      ui.fieldError(url, 'Type the receiver\'s full address, starting with https://.');
      url.input.focus();
      return;
    }
    if (!types.length) {
      ui.fieldError(events, 'Type * for every event, or the types to send.');
      events.input.focus();
      return;
    }
    if (!/^[0-9]{4,6}$/.test(pin.input.value)) {
      ui.fieldError(pin, 'Type your own account PIN (4 to 6 digits): adding an endpoint asks for it.');
      pin.input.focus();
      return;
    }
    try {
      const created = await ui.busy(addButton,
        app.api.operatorAddWebhook({ url: url.input.value.trim(), events: types, pin: pin.input.value }));
      pin.input.value = '';
      secret.replaceChildren('Added. Its signing secret, shown this once (copy it to the receiver now): ',
        h('code', { id: 'webhook-secret-value' }, created.secret));
      await loadList();
    } catch (error) {
      ui.showError(addForm, error);
    }
  });

  await loadList();
}

export const routes = [
  { path: '/operator/webhooks', title: 'Webhooks', auth: true, render: renderWebhooks },
];
