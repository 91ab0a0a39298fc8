// @ts-check
/**
 * The console's webhooks without their DOM (the view is webhooks.js): the endpoints, adding one
 * with the operator's own PIN (its signing secret shown once), one endpoint's delivery log, sending
 * an event again, enabling and removing an endpoint. The server checks everything (403
 * `not_operator` for anyone else). The view renders `state` on every change and forwards the
 * user's actions to the methods below; it asks before a removal.
 *
 * States (`state.kind`):
 *   loading, shown {endpoints, log: {endpointId, attempts} | null, secret: string | null,
 *   notice: string | null} (`secret`: the one just added's, shown this once).
 * An action refused where the user acted rejects and leaves the state as it was: a field of the
 * add form typed wrong (`field`: 'url', 'events' or 'pin'), or the server's refusal.
 */

import { refusal as fieldError } from './refusals.js';

export class WebhooksModel {
  /**
   * @param {any} api the Countersign client: operatorWebhooks, operatorAddWebhook,
   *   operatorWebhookDeliveries, operatorRedeliverWebhook, operatorEnableWebhook, operatorRemoveWebhook
   * @param {{onChange?: (state: any) => void}} options
   */
  constructor(api, { onChange }) {
    this.api = api;
    this.onChange = onChange;
    /** @type {any} */
    this.state = { kind: 'loading' };
  }

  /** Reads the endpoints (a failure rejects). */
  async load() {
    const { endpoints } = await this.api.operatorWebhooks();
    const last = this.state.kind === 'shown' ? this.state : { log: null, secret: null, notice: null };
    this.move({ ...last, kind: 'shown', endpoints });
  }

  /**
   * Adds an endpoint from the form's text: the events are `*` or types separated by commas.
   * @param {{url: string, events: string, pin: string}} fields
   */
  async add(fields) {
    if (this.state.kind === 'shown' && this.state.secret) this.move({ ...this.state, secret: null });
    const url = fields.url.trim();
    const events = fields.events.split(',').map((t) => t.trim()).filter(Boolean);
    if (!/^https?:\/\//i.test(url)) throw fieldError('url', 'Type the receiver\'s full address, starting with https://.');
    if (!events.length) throw fieldError('events', 'Type * for every event, or the types to send.');
    if (!/^[0-9]{4,6}$/.test(fields.pin)) {
      throw fieldError('pin', 'Type your own account PIN (4 to 6 digits): adding an endpoint asks for it.');
    }
    const created = await this.api.operatorAddWebhook({ url, events, pin: fields.pin });
    this.move({ ...this.state, secret: created.secret });
    await this.load();
  }

  /** Shows one endpoint's delivery attempts. @param {string} endpointId */
  async showLog(endpointId) {
    const { attempts } = await this.api.operatorWebhookDeliveries(endpointId);
    this.move({ ...this.state, log: { endpointId, attempts } });
  }

  /** Sends one event to the endpoint again. @param {string} endpointId @param {string} eventId */
  redeliver(endpointId, eventId) {
    return this.act(() => this.api.operatorRedeliverWebhook(endpointId, eventId), 'Queued: it is sent again within moments.');
  }

  /** Enables an endpoint that failures disabled. @param {string} endpointId */
  enable(endpointId) {
    return this.act(() => this.api.operatorEnableWebhook(endpointId), 'Enabled: events from now on are sent to it.');
  }

  /** Removes an endpoint (the view has asked first). @param {string} endpointId */
  remove(endpointId) {
    return this.act(() => this.api.operatorRemoveWebhook(endpointId), 'Removed: nothing more is sent there.');
  }

  /** @private @param {() => Promise<any>} call @param {string} done */
  async act(call, done) {
    await call();
    this.move({ ...this.state, notice: done });
    await this.load();
  }

  /** @private @param {any} state */
  move(state) {
    this.state = state;
    this.onChange?.(state);
  }
}
