// @ts-check
/**
 * error-words.js: what each of the server's stable error codes means to a person, and what they
 * can do next. The server's own message is written for developers ("phone must be a phone number:
 * …"); the app never makes it the headline. A code not listed here falls back to words for its
 * HTTP status. `ui.showError` puts these words first and the code, the reference and the server's
 * text in a "Details for support" disclosure.
 * @module error-words
 */

/** @typedef {{what: string, next?: string}} Words */

const CHECK_AND_RETRY = 'Check what you typed and try again.';
const TRY_LATER = 'Wait a minute and try again. If it keeps happening, contact support with the details below.';
const SIGN_IN_AGAIN = 'Sign in again to continue.';
const PASSKEY_AGAIN = 'Try again, or use your account PIN instead.';
const START_AGAIN = 'Go back and start again.';
const RELOAD = 'Reload the page and try again.';
/** @type {Words} */
const PASSKEY_NOT_ACCEPTED = { what: 'The passkey\'s answer was not accepted. Nothing was changed.', next: PASSKEY_AGAIN };
/** @type {Words} */
const APP_MISTAKE = { what: 'The app sent something the server could not accept.', next: RELOAD };
/** @type {Words} */
const ADDRESS_FIELD = { what: 'Part of the address is missing or not accepted.', next: 'Check the address and try again.' };

/** Words per stable error code. @type {Record<string, Words>} */
const WORDS = {
  // Requests the app made wrongly, or a server in trouble
  bad_request: { what: 'The app sent something the server could not read.', next: RELOAD },
  invalid_json: { what: 'The app sent something the server could not read.', next: RELOAD },
  missing_field: { what: 'Something needed is missing.', next: CHECK_AND_RETRY },
  invalid_type: { what: 'Something you entered is not in the expected form.', next: CHECK_AND_RETRY },
  invalid_value: { what: 'Something you entered is not accepted.', next: CHECK_AND_RETRY },
  invalid_request: { what: 'Something you entered is not accepted.', next: CHECK_AND_RETRY },
  body_too_large: { what: 'That is too much to send at once.', next: 'Shorten it and try again.' },
  unsupported_media_type: { what: 'The app sent something the server could not read.', next: RELOAD },
  not_found: { what: 'That could not be found.', next: 'It may have been removed. Go back and try again.' },
  method_not_allowed: { what: 'The app asked for something the server does not do.', next: RELOAD },
  internal_error: { what: 'Something went wrong on our side. Nothing was changed.', next: TRY_LATER },
  database_unavailable: { what: 'The service is briefly unavailable. Nothing was changed.', next: TRY_LATER },
  server_busy: { what: 'The service is busy right now. Nothing was changed.', next: TRY_LATER },
  rate_limited: { what: 'Too many attempts in a short time.', next: 'Wait a little and try again.' },
  origin_refused: { what: 'This page is not allowed to talk to the server.', next: 'Open Countersign from its own address.' },
  cross_origin_refused: { what: 'This page is not allowed to talk to the server.', next: 'Open Countersign from its own address.' },

  // Signing up and in
  unauthenticated: { what: 'You are signed out.', next: SIGN_IN_AGAIN },
  invalid_phone: { what: 'That phone number does not look right.', next: 'Check it and type it again, e.g. 0803 123 4567.' },
  invalid_name: { what: 'That name is not accepted.', next: 'Use your name as people know it (letters, spaces and dashes).' },
  invalid_pin: { what: 'The PIN must be 4 to 6 digits.', next: 'Type your account PIN again.' },
  weak_pin: { what: 'That PIN is too easy to guess.', next: 'Choose another PIN: no runs like 1234, no repeats like 1111.' },
  phone_taken: { what: 'An account already uses this phone number.', next: 'Sign in instead, or use "Forgot your PIN?" to recover it.' },
  invalid_credentials: { what: 'The phone number or account PIN is not right.', next: 'Check both and try again. Repeated wrong PINs lock the account for a while.' },
  login_locked: { what: 'Signing in is locked after too many wrong PINs.', next: 'Wait until the lock ends, or use "Forgot your PIN?".' },
  pin_locked: { what: 'Your account PIN is locked after too many wrong tries.', next: 'Wait until the lock ends, or use "Forgot your PIN?".' },
  pin_reset_required: { what: 'Your account PIN must be reset before it can be used.', next: 'Use "Forgot your PIN?" to choose a new one.' },
  pin_cooling_off: { what: 'Your account PIN was changed recently, so large actions wait for a while.', next: 'Try again later.' },
  pin_checks_busy: { what: 'Too many PIN checks are running for this account.', next: 'Wait a moment and try again.' },
  phone_code_required: { what: 'This device is new to your account, so we sent a code by SMS.', next: 'Type the code from the message.' },
  invalid_verification_token: { what: 'The SMS code step has expired.', next: 'Ask for a new code and try again.' },
  invalid_code: { what: 'That is not the code we sent.', next: 'Check the SMS and type the 6 digits again.' },
  code_expired: { what: 'That code has expired.', next: 'Ask for a new code.' },
  same_phone: { what: 'That is already your phone number.', next: 'Type the new number you want to use.' },
  device_cooling_off: { what: 'A device joined your account recently, so this waits for a while to protect you.', next: 'Try again later, or confirm with a passkey you already have.' },
  limit_exceeded: { what: 'This payment is over one of your spending limits. Nothing was charged.', next: 'Pay less, or see Limits to change them.' },
  payee_limit_exceeded: { what: 'The recipient cannot receive this much now. Nothing was charged.', next: 'Send less, or ask them to check their limits.' },
  limit_above_tier: { what: 'That is above what your account\'s tier allows.', next: 'Choose a lower amount, or ask us for a higher tier.' },
  unknown_tier: { what: 'There is no tier of that name.', next: 'Choose one of the tiers listed.' },
  strong_authentication_required: {
    what: 'This payment needs your passkey: your PIN alone pays only small amounts, and only a few times between passkey payments.',
    next: 'Confirm it with your passkey, or add one under Keys. Nothing was charged.',
  },
  new_device_limit: { what: 'This device is new, so its payments are limited for now.', next: 'Try a smaller amount, or try again later.' },
  unknown_device: { what: 'This device is not known to your account.', next: SIGN_IN_AGAIN },
  unknown_user: { what: 'No account has that phone number.', next: 'Check the number, or sign up.' },
  passkey_sign_in_failed: { what: 'Signing in with the passkey did not work.', next: 'Sign in with your phone number and account PIN.' },

  // Confirming with the account PIN or a passkey
  step_up_required: { what: 'This needs your account PIN or passkey.', next: 'Confirm it is you and try again.' },
  step_up_failed: { what: 'That account PIN is not right, so nothing was changed.', next: 'Type your account PIN again. Repeated wrong PINs lock it for a while.' },
  ambiguous_step_up: { what: 'The app sent two ways of confirming at once.', next: RELOAD },
  authorization_required: { what: 'This payment needs your account PIN or passkey.', next: 'Confirm it is you and try again.' },
  ambiguous_authorization: { what: 'The app sent two ways of confirming at once.', next: RELOAD },
  authorization_failed: { what: 'The payment was not authorized: the account PIN or passkey was not accepted.', next: 'Try again with your account PIN. Repeated failures lock payments for a while.' },
  payment_locked: { what: 'Payments are locked after too many failed authorizations.', next: 'Wait until the lock ends, then try again.' },
  not_operator: { what: 'Only operators can open the operator console.', next: 'Go back to your dashboard.' },
  own_account: { what: 'Operators cannot change their own account.', next: 'Ask another operator to do it.' },
  webhook_url_refused: {
    what: 'That receiver address is not allowed: it must start with https:// and not name an internal address of this network.',
    next: 'Type the receiver\'s public https address.',
  },
  unknown_webhook_event: { what: 'One of the event types is not one the server sends.', next: 'Type * for every event, or check the names in the webhooks guide.' },
  webhook_endpoint_limit: { what: 'Sixteen endpoints are registered already, the most there can be.', next: 'Remove one you no longer need, then add this one.' },
  webhook_endpoint_not_found: { what: 'That webhook endpoint is gone: it was removed.', next: RELOAD },
  webhook_event_not_found: { what: 'That endpoint was never sent that event.', next: RELOAD },

  // Passkeys
  credential_exists: { what: 'This passkey is already on your account.', next: 'There is nothing more to do.' },
  unknown_credential: { what: 'That passkey is not on your account (it may have been removed).', next: PASSKEY_AGAIN },
  credential_flagged: { what: 'That passkey was turned off by a security check.', next: 'Use your account PIN, and add a new passkey on the Keys screen.' },
  synced_passkey_refused: { what: 'Passkeys synced between devices are not accepted here.', next: 'Use a passkey kept on this device only.' },
  authenticator_not_allowed: { what: 'This kind of passkey is not accepted.', next: 'Use the passkey built into your phone or computer.' },
  authenticator_compromised: { what: 'This kind of passkey is known to be unsafe and is not accepted.', next: 'Use another device.' },
  attestation_untrusted: { what: 'This passkey could not be trusted.', next: 'Use the passkey built into your phone or computer.' },
  no_registered_credential: { what: 'Your account has no passkey yet.', next: 'Use your account PIN, or add a passkey on the Keys screen.' },
  invalid_challenge: { what: 'The passkey check took too long or was already used.', next: PASSKEY_AGAIN },
  user_not_verified: { what: 'The passkey did not confirm it was you (no fingerprint, face or screen lock).', next: PASSKEY_AGAIN },
  user_not_present: { what: 'The passkey did not confirm it was you.', next: PASSKEY_AGAIN },
  // The passkey's answer did not check out (the verifier's codes): one message for all of them
  attestation_failed: PASSKEY_NOT_ACCEPTED,
  bad_signature: PASSKEY_NOT_ACCEPTED,
  challenge_mismatch: PASSKEY_NOT_ACCEPTED,
  credential_id_mismatch: PASSKEY_NOT_ACCEPTED,
  id_mismatch: PASSKEY_NOT_ACCEPTED,
  invalid_backup_flags: PASSKEY_NOT_ACCEPTED,
  malformed_attestation: PASSKEY_NOT_ACCEPTED,
  malformed_authenticator_data: PASSKEY_NOT_ACCEPTED,
  malformed_cbor: PASSKEY_NOT_ACCEPTED,
  malformed_client_data: PASSKEY_NOT_ACCEPTED,
  malformed_public_key: PASSKEY_NOT_ACCEPTED,
  missing_credential_data: PASSKEY_NOT_ACCEPTED,
  origin_not_allowed: PASSKEY_NOT_ACCEPTED,
  payment_data_mismatch: PASSKEY_NOT_ACCEPTED,
  rp_id_hash_mismatch: PASSKEY_NOT_ACCEPTED,
  unexpected_algorithm: PASSKEY_NOT_ACCEPTED,
  unsupported_algorithm: PASSKEY_NOT_ACCEPTED,
  unsupported_attestation_format: PASSKEY_NOT_ACCEPTED,
  wrong_type: PASSKEY_NOT_ACCEPTED,
  invalid_base64url: PASSKEY_NOT_ACCEPTED,
  sign_count_regression: { what: 'This passkey looks copied, so it was turned off.', next: 'Use your account PIN, and add a new passkey on the Keys screen.' },

  // Money
  invalid_amount: { what: 'That amount is not accepted.', next: 'Type the amount again, e.g. 1,500.00.' },
  amount_out_of_range: { what: 'That amount is outside what is allowed here.', next: 'Type a smaller or larger amount.' },
  payee_not_found: { what: 'No Countersign wallet uses this number.', next: 'Check the number, or ask them to sign up first.' },
  payee_unverified: {
    what: 'The owner of this number has not confirmed it yet, so it cannot receive money.',
    next: 'Ask them to sign in to Countersign once, then try again.',
  },
  insufficient_funds: { what: 'Your wallet does not hold enough for this.', next: 'Top up the wallet or choose a smaller amount.' },
  unsupported_currency: { what: 'That currency is not supported here.', next: 'Pay in the currency shown.' },
  self_transfer: { what: 'You cannot send money to yourself.', next: 'Type the phone number of the person you are paying.' },
  invalid_note: { what: 'That note is not accepted.', next: 'Shorten it to a line of plain text.' },
  unknown_product: { what: 'That airtime product is not offered.', next: 'Choose another amount or network.' },
  unknown_supplier: { what: 'That network is not offered.', next: 'Choose another network.' },
  supplier_mismatch: { what: 'That number belongs to another network.', next: 'Choose the network of the number.' },
  quote_expired: { what: 'The price was held for a limited time and has expired. Nothing was paid.', next: START_AGAIN },
  already_settled: { what: 'This payment is already finished.', next: 'Check your transactions on the dashboard.' },
  transfer_not_found: { what: 'That payment could not be found.', next: 'Check your transactions on the dashboard.' },
  transfer_busy: { what: 'This payment is being worked on.', next: 'Wait a moment and look again.' },
  // Only ever a failed transfer's recorded error: the server could not process it.
  processing_failed: { what: 'The payment could not be processed. Nothing was charged.', next: TRY_LATER },
  internal_inconsistency: { what: 'The payment could not be completed. Nothing was charged.', next: TRY_LATER },
  invalid_state: { what: 'This payment cannot do that in its current state.', next: 'Reload the page to see where it is.' },
  idempotency_in_flight: { what: 'This request is still being worked on.', next: 'Wait a moment and look again before trying again.' },
  idempotency_key_reused: { what: 'The app reused a request for something different.', next: 'Reload the page and start again.' },
  missing_idempotency_key: { what: 'The app sent an incomplete request.', next: RELOAD },
  invalid_token: { what: 'The confirmation for this payment is not valid.', next: START_AGAIN },
  token_expired: { what: 'The confirmation for this payment has expired. Nothing was paid.', next: START_AGAIN },
  token_replayed: { what: 'This confirmation was already used.', next: 'Check your transactions before trying again.' },
  token_wrong_user: { what: 'This confirmation belongs to another account.', next: SIGN_IN_AGAIN },
  intent_mismatch: { what: 'The payment changed after you confirmed it. Nothing was paid.', next: START_AGAIN },
  duplicate_reference: { what: 'A funding with this reference already exists.', next: 'Check the wallet before funding it again.' },

  // Marketplace and checkout
  product_not_found: { what: 'That product is no longer listed.', next: 'Go back to the market.' },
  product_sold: { what: 'This product has been sold to another buyer, so it takes no more offers.', next: 'Go back to the market.' },
  product_unavailable: { what: 'That product is not for sale right now.', next: 'Go back to the market.' },
  own_product: { what: 'You cannot bid on your own product.', next: 'Go back to the market.' },
  bid_not_found: { what: 'That bid could not be found.', next: 'Go back to your bids.' },
  bid_not_accepted: { what: 'That bid has not been accepted.', next: 'Wait for the seller to accept it.' },
  not_seller: { what: 'Only the seller can do that.', next: 'Go back to the market.' },
  not_buyer: { what: 'Only the buyer can do that.', next: 'Go back to the market.' },
  order_not_found: { what: 'That order could not be found.', next: 'Go back to your orders.' },
  order_closed: { what: 'That order is closed.', next: 'Go back to your orders.' },
  order_busy: { what: 'This order is being worked on.', next: 'Wait a moment and look again.' },
  order_paid: { what: 'This order is already paid.', next: 'Go to the order to follow it.' },
  refund_exceeds_paid: { what: 'That is more than this order has left to refund.', next: 'Refund at most the amount the order shows as refundable.' },
  invalid_reason: { what: 'The reason is missing or too long.', next: 'Say in a short line why you are refunding.' },
  reversal_insufficient_funds: { what: 'The wallet that received the money no longer holds enough of it.', next: 'Nothing was reversed. The details say how much it holds.' },
  already_reversed: { what: 'This was reversed already.', next: 'Reload to see the reversal in the history.' },
  refund_not_found: { what: 'That refund could not be found.', next: 'Check the refund id.' },
  refund_not_pending: { what: 'That refund has ended already.', next: 'Nothing changed; reload the order to see it.' },
  payment_in_progress: { what: 'A payment for this order is already under way.', next: 'Wait a moment and look again.' },
  address_required: { what: 'This needs a delivery address.', next: 'Add an address and try again.' },
  address_not_found: { what: 'That address could not be found.', next: 'Choose another address.' },
  delivery_unavailable: { what: 'Delivery is not available to that address.', next: 'Choose another address or pickup.' },
  no_route: { what: 'No delivery goes from the seller to that address.', next: 'Choose another address or pickup.' },
  totals_unavailable: { what: 'The total could not be worked out right now.', next: TRY_LATER },
  card_declined: { what: 'The card was declined. Nothing was charged.', next: 'Use another card or another way to pay.' },
  invalid_card_number: { what: 'That card number is not valid.', next: CHECK_AND_RETRY },
  invalid_expiry: { what: 'That expiry date is not valid.', next: CHECK_AND_RETRY },
  payment_method_required: { what: 'Choose how to pay first.', next: 'Pick a way to pay and try again.' },
  resource_missing: { what: 'The payment provider no longer has that payment method or account.', next: 'Choose another way to pay, or save your card again.' },
  return_url_not_allowed: { what: 'This page cannot be the place the payment returns to.', next: 'Add money from the Countersign app itself.' },
  funding_not_found: { what: 'We could not find that payment.', next: 'Check your wallet history, or add money again.' },
  funding_below_minimum: { what: 'That amount is too small to add.', next: 'Add at least 1.00 at a time.' },
  funding_above_maximum: { what: 'That amount is more than you can add at once.', next: 'Add at most 10,000.00 at a time; you can add more afterwards.' },
  payment_method_not_offered: { what: 'That way to pay is not offered for this wallet.', next: 'Pay by card, or choose your euro wallet for iDEAL or Bancontact.' },
  payment_canceled: { what: 'The payment was cancelled. Nothing was charged.', next: 'Try again when you are ready.' },
  payment_failed: { what: 'The payment did not go through. Nothing was charged.', next: 'Try again or use another way to pay.' },
  invalid_title: { what: 'That title is not accepted.', next: 'Use a short line of plain text.' },
  invalid_line1: ADDRESS_FIELD,
  invalid_city: ADDRESS_FIELD,
  invalid_postalCode: ADDRESS_FIELD,
  invalid_country: ADDRESS_FIELD,
  unknown_country: { what: 'Deliveries do not go to that country.', next: 'Choose another address.' },
  unknown_shipping_method: { what: 'That way of delivery is not offered.', next: 'Choose another way of delivery.' },
  no_delivery_method: { what: 'This product has no way of delivery yet.', next: 'Ask the seller, or choose another product.' },
  invalid_seller: { what: 'That seller could not be found.', next: 'Go back to the market.' },
  card_not_owned: { what: 'That card is not yours to use.', next: 'Choose another card.' },
  card_entry_not_supported: { what: 'Cards cannot be typed in here.', next: 'Choose another way to pay.' },
  unsupported_test_card: { what: 'That test card is not supported.', next: 'Use one of the test cards listed.' },
  payment_method_not_found: { what: 'That way to pay could not be found.', next: 'Choose another way to pay.' },
  payment_intent_not_found: { what: 'That payment could not be found.', next: START_AGAIN },
  payment_intent_unexpected_state: { what: 'That payment cannot do that in its current state.', next: RELOAD },
  invalid_return_url: APP_MISTAKE,
  return_url_required: APP_MISTAKE,
  invalid_signature: APP_MISTAKE,
  stale_signature: APP_MISTAKE,

  // Lists and paging the app asked for wrongly
  invalid_cursor: APP_MISTAKE,
  unknown_cursor: APP_MISTAKE,
  invalid_limit: APP_MISTAKE,
  invalid_last_event_id: APP_MISTAKE,
  invalid_idempotency_key: APP_MISTAKE,
  payment_mismatch: {
    what: 'The payment provider reported another amount for this payment, so it was not accepted.',
    next: 'Contact support with the details below before paying again.',
  },
  payment_provider_unavailable: { what: 'The payment provider cannot be reached. Nothing was charged.', next: TRY_LATER },
};

/** Words per HTTP status, for codes not listed. @type {Record<number, Words>} */
const BY_STATUS = {
  400: { what: 'The app sent something the server could not read.', next: RELOAD },
  401: { what: 'You are signed out.', next: SIGN_IN_AGAIN },
  403: { what: 'You are not allowed to do that.', next: 'Go back to your dashboard.' },
  404: { what: 'That could not be found.', next: 'Go back and try again.' },
  409: { what: 'That clashes with something that changed meanwhile.', next: RELOAD },
  413: { what: 'That is too much to send at once.', next: 'Shorten it and try again.' },
  422: { what: 'That was not accepted.', next: CHECK_AND_RETRY },
  423: { what: 'This is locked for now after too many tries.', next: 'Wait until the lock ends, then try again.' },
  429: { what: 'Too many attempts in a short time.', next: 'Wait a little and try again.' },
};

/**
 * The words for a server error: its code's, else its status's, else a general one.
 * @param {string | null | undefined} code
 * @param {number} [status]
 * @returns {Words}
 */
export function wordsFor(code, status = 0) {
  if (code && Object.hasOwn(WORDS, code)) return WORDS[code];
  if (Object.hasOwn(BY_STATUS, status)) return BY_STATUS[status];
  if (status >= 500) return WORDS.internal_error;
  return { what: 'Something went wrong.', next: 'Try again. If it keeps happening, contact support with the details below.' };
}

/** Whether `code` has words of its own (the tests check every documented code has). @param {string} code */
export function hasWords(code) {
  return Object.hasOwn(WORDS, code);
}

/** The codes with words of their own (Tests/Web/error-codes.test.mjs holds them to `ErrorCode`). */
export function codesWithWords() {
  return Object.keys(WORDS);
}
