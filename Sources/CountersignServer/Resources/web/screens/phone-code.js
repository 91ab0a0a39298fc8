// @ts-check
/**
 * phone-code.js: one SMS code for one purpose, without its DOM (the view is code-step.js). It asks
 * the server for a code, keeps when another may be asked for, and in test mode (the server's SMS
 * simulator: `/health` says `smsTestMode`) finds the code the simulator "sent", so that a person can
 * use the app without a phone. The view renders `state` on every change.
 *
 * States (`state.kind`): idle, sending, sent {phone, verificationId, resendAt, expiresAt, expiresIn, simulated},
 * failed {error}. `simulated` is the code read from the simulator (test mode), or null.
 * @module phone-code
 */

/** @typedef {import('../countersign.js').Countersign} Countersign */
/** @typedef {import('../countersign.js').VerificationPurpose} VerificationPurpose */
/** @typedef {{kind: 'idle'} | {kind: 'sending', phone: string} | {kind: 'failed', error: any}
 *   | {kind: 'sent', phone: string, verificationId: string, resendAt: number, expiresAt: number, expiresIn: number, simulated: string | null}}
 *   CodeState */

/** How each purpose's SMS starts after its code (the simulator's messages say what the code is for). */
const PURPOSE_WORDS = /** @type {Record<VerificationPurpose, string>} */ ({
  signup: 'to open your',
  login: 'to sign in',
  'bind-device': 'to add a device key',
  recover: 'to reset your',
  'change-phone': 'to move your',
});

/** Error codes that are about the code the user typed. */
export const CODE_ERRORS = ['invalid_code', 'code_expired'];

/** The server's clock and this page's may differ a little; a message this much older is not ours. */
const SKEW_MS = 60_000;

/** @type {WeakMap<object, Promise<boolean>>} */
const testModes = new WeakMap();

/**
 * Whether the server's SMS provider is its simulator (asked once per client).
 * @param {Countersign} api
 * @returns {Promise<boolean>}
 */
export function smsTestMode(api) {
  let known = testModes.get(api);
  if (!known) {
    known = api.health().then((health) => !!health?.smsTestMode, () => false);
    testModes.set(api, known);
  }
  return known;
}

/**
 * The code a message carries: its first six digits.
 * @param {string} body
 * @returns {string | null}
 */
export function codeIn(body) {
  const match = /^(\d{6})\b/.exec(body);
  return match ? match[1] : null;
}

export class PhoneCode {
  /**
   * @param {Countersign} api
   * @param {{purpose: VerificationPurpose, onChange?: (state: CodeState) => void, now?: () => number,
   *   pollMs?: number, pollTries?: number}} options
   */
  constructor(api, { purpose, onChange, now = Date.now, pollMs = 400, pollTries = 25 }) {
    this.api = api;
    this.purpose = purpose;
    this.onChange = onChange;
    this.now = now;
    this.pollMs = pollMs;
    this.pollTries = pollTries;
    /** @type {CodeState} */
    this.state = { kind: 'idle' };
    /** Codes already shown by this step: a resend must show the new one. */
    this.seen = new Set();
    this.generation = 0;
    this.stopped = false;
  }

  /** @param {CodeState} state */
  show(state) {
    this.state = state;
    if (!this.stopped) this.onChange?.(state);
    return state;
  }

  /** Seconds until another code may be asked for (0: now). */
  resendIn() {
    return this.state.kind === 'sent' ? Math.max(0, Math.ceil((this.state.resendAt - this.now()) / 1000)) : 0;
  }

  /**
   * Asks for a code to `phone` (again, for a resend: the new code replaces the old one).
   * @param {string} phone
   */
  async send(phone) {
    if (this.state.kind === 'sending') return this.state;
    const mine = ++this.generation;
    const asked = this.now();
    this.show({ kind: 'sending', phone });
    try {
      const answer = await this.api.requestCode({ phone, purpose: this.purpose });
      if (mine !== this.generation) return this.state;
      this.show({
        kind: 'sent', phone, verificationId: answer.verificationId, simulated: null,
        resendAt: asked + answer.resendAfter * 1000, expiresAt: asked + answer.expiresIn * 1000,
        expiresIn: answer.expiresIn,
      });
      if (await smsTestMode(this.api)) this.findSimulated(phone, asked, mine);
    } catch (error) {
      if (mine === this.generation) this.show({ kind: 'failed', error });
    }
    return this.state;
  }

  /**
   * Test mode: polls the simulator for the code just sent.
   * @param {string} phone @param {number} asked @param {number} mine
   */
  async findSimulated(phone, asked, mine) {
    const words = PURPOSE_WORDS[this.purpose];
    for (let i = 0; i < this.pollTries && !this.stopped && mine === this.generation; i++) {
      try {
        const { messages } = await this.api.simulatedMessages(phone);
        const fresh = messages.filter((m) => codeIn(m.body) && !this.seen.has(codeIn(m.body))
          && Date.parse(m.sentAt) >= asked - SKEW_MS);
        const found = fresh.find((m) => m.body.includes(words)) ?? fresh[0];
        const code = found ? codeIn(found.body) : null;
        if (code && mine === this.generation && this.state.kind === 'sent') {
          this.seen.add(code);
          this.show({ ...this.state, simulated: code });
          return;
        }
      } catch {
        return; // Not in test mode after all: the person reads their SMS.
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  /**
   * What the operation the code unlocks needs, or null before a code was sent.
   * @param {string} code
   * @returns {{verificationId: string, code: string} | null}
   */
  proof(code) {
    return this.state.kind === 'sent' ? { verificationId: this.state.verificationId, code } : null;
  }

  /** Back to no code (the number changed). */
  reset() {
    this.generation++;
    this.show({ kind: 'idle' });
  }

  /** The screen is gone: no more polls, no more renders. */
  stop() {
    this.stopped = true;
    this.generation++;
  }
}
