/// Every stable machine code the server sends as `error.code` (and as `code` of the biometric verify
/// endpoint's failure body). The raw values are the wire; openapi.yaml's `ErrorCode` schema lists
/// exactly these, and a test holds the two together.
///
/// A newer server may send a code this enum does not have yet. The wire types therefore keep the
/// code as the string received (`ErrorResponse.Body.code`), so an error body always decodes, and
/// offer it typed as `errorCode: ErrorCode?`, nil for a code this build does not know.
public enum ErrorCode: String, CaseIterable, Codable, Sendable {
    // MARK: Requests and the framework

    /// No route at this path (or a resource id the route does not know, where no finer code exists).
    case notFound = "not_found"
    /// The path exists but not with this method; the `Allow` header lists those it has.
    case methodNotAllowed = "method_not_allowed"
    /// The framework refused the request as malformed before any route saw it.
    case badRequest = "bad_request"
    /// The request body is larger than the server accepts.
    case bodyTooLarge = "body_too_large"
    /// A JSON body was sent with another `Content-Type`.
    case unsupportedMediaType = "unsupported_media_type"
    /// The body is empty or not valid JSON.
    case invalidJSON = "invalid_json"
    /// A required field is absent or null; the message names it.
    case missingField = "missing_field"
    /// A field has the wrong JSON type; the message names it.
    case invalidType = "invalid_type"
    /// A field has a value outside what its type allows (e.g. an unknown enum value).
    case invalidValue = "invalid_value"
    /// Too many requests from this address or account; `retryAfter` says when to come back.
    case rateLimited = "rate_limited"
    /// A browser request from a web origin the server does not accept.
    case originRefused = "origin_refused"
    /// An unexpected failure on the server; logged with its cause, never shown.
    case internalError = "internal_error"
    /// The database does not answer (`GET /health`).
    case databaseUnavailable = "database_unavailable"

    // MARK: Accounts and sessions

    /// No valid session token (or session cookie).
    case unauthenticated = "unauthenticated"
    /// A phone number that cannot be read as one.
    case invalidPhone = "invalid_phone"
    /// A display name (or an address's name) that is empty or too long.
    case invalidName = "invalid_name"
    /// A PIN that is not 4 to 6 digits.
    case invalidPin = "invalid_pin"
    /// Signup with a phone number that is registered already.
    case phoneTaken = "phone_taken"
    /// Login with a wrong phone number or PIN.
    case invalidCredentials = "invalid_credentials"
    /// Login locked after repeated wrong PINs; `retryAfter` says when it unlocks.
    case loginLocked = "login_locked"
    /// PIN checks locked after repeated wrong PINs (step-up); `retryAfter` says when they unlock.
    case pinLocked = "pin_locked"
    /// As many PIN checks for the account as the lockout allows are still running; retry in a second.
    case pinChecksBusy = "pin_checks_busy"
    /// A passkey sign-in assertion that does not check out (never says why).
    case passkeySignInFailed = "passkey_sign_in_failed"
    /// The PIN is blocked after repeated locks: only an operator lifts it.
    case pinResetRequired = "pin_reset_required"
    /// The server's PIN hashing is at capacity: nothing was judged; `retryAfter` says when to retry.
    case serverBusy = "server_busy"
    /// A PIN among the most common ones (or a run or repetition of digits), refused when it is chosen.
    case weakPin = "weak_pin"
    /// Two letters that ISO 3166-1 assigns to no country (`ZZ`, `XX`, `AA`).
    case unknownCountry = "unknown_country"
    /// After a PIN reset by code alone, PIN payments and PIN step-ups wait out a cooling-off;
    /// `retryAfter` says how long.
    case pinCoolingOff = "pin_cooling_off"

    // MARK: Phone numbers and devices

    /// A device the account does not know signs in (or a key is bound) with the PIN alone: send a
    /// code sent to the number as well (`POST /auth/phone/verifications`).
    case phoneCodeRequired = "phone_code_required"
    /// The one-time code is not the one sent; a verification allows five tries in all.
    case invalidCode = "invalid_code"
    /// The verification is unknown, expired, used, out of tries or for another purpose or number:
    /// ask for a new code.
    case codeExpired = "code_expired"
    /// Changing to the number the account already has.
    case samePhone = "same_phone"
    /// A key or device bound with the PIN and a code is in its cooling-off: no further key can be
    /// bound that way, nor by a step-up from it, until it ends (`retryAfter`).
    case deviceCoolingOff = "device_cooling_off"
    /// A device or key in its cooling-off may pay at most the new-device limit at once.
    case newDeviceLimit = "new_device_limit"
    /// A payment the PIN alone may not authorize: over the low-value allowance for one-factor
    /// payments (at once, or in all since the last passkey payment). The passkey may.
    case strongAuthenticationRequired = "strong_authentication_required"
    /// A remembered device the user does not have (`DELETE /account/devices/{id}`).
    case unknownDevice = "unknown_device"

    // MARK: Device keys (WebAuthn)

    /// Adding a device key without a PIN or an assertion from a key the user has.
    case stepUpRequired = "step_up_required"
    /// The step-up PIN is wrong.
    case stepUpFailed = "step_up_failed"
    /// A step-up with both a PIN and an assertion.
    case ambiguousStepUp = "ambiguous_step_up"
    /// A binary field that is not non-empty base64url without padding.
    case invalidBase64URL = "invalid_base64url"
    /// A credential's `id` that is not the base64url of its `rawId`.
    case idMismatch = "id_mismatch"
    /// A WebAuthn challenge that is unknown, expired, already used or issued for something else.
    case invalidChallenge = "invalid_challenge"
    /// Registering a credential that is registered already.
    case credentialExists = "credential_exists"
    /// An assertion from a credential the user does not have (401), or revoking one (404).
    case unknownCredential = "unknown_credential"
    /// A credential disabled after a security check (a signature counter that went back).
    case credentialFlagged = "credential_flagged"
    /// A synced passkey (backup eligible at registration, backed up at payment) where the operator
    /// accepts only device-bound keys (`--synced-passkeys deny`).
    case syncedPasskeyRefused = "synced_passkey_refused"
    /// An authenticator model the operator's lists refuse (`--authenticator-allow`,
    /// `--authenticator-deny`), or one whose model is not attested where an allow list applies.
    case authenticatorNotAllowed = "authenticator_not_allowed"
    /// An authenticator model the FIDO Metadata Service reports revoked or compromised.
    case authenticatorCompromised = "authenticator_compromised"
    /// An attestation chain that does not lead to a root the metadata lists for its model.
    case attestationUntrusted = "attestation_untrusted"
    /// A passkey payment or transfer by a user with no device key yet.
    case noRegisteredCredential = "no_registered_credential"
    /// clientDataJSON is not a JSON object with the required members.
    case malformedClientData = "malformed_client_data"
    /// clientDataJSON `type` is not the one this ceremony accepts.
    case wrongType = "wrong_type"
    /// A Secure Payment Confirmation's `payment` member differs from what was issued.
    case paymentDataMismatch = "payment_data_mismatch"
    /// clientDataJSON `challenge` is not the challenge issued.
    case challengeMismatch = "challenge_mismatch"
    /// clientDataJSON `origin` is not one of the server's origins.
    case originNotAllowed = "origin_not_allowed"
    /// The ceremony ran in a cross-origin iframe, which is not allowed.
    case crossOriginRefused = "cross_origin_refused"
    /// authenticatorData's rpIdHash is not for this relying party.
    case rpIdHashMismatch = "rp_id_hash_mismatch"
    /// The authenticator's user-present flag is clear.
    case userNotPresent = "user_not_present"
    /// User verification was required and the authenticator did not perform it.
    case userNotVerified = "user_not_verified"
    /// Backup flags that are inconsistent, or backup eligibility that differs from registration.
    case invalidBackupFlags = "invalid_backup_flags"
    /// authenticatorData is truncated, too long or inconsistent with its flags.
    case malformedAuthenticatorData = "malformed_authenticator_data"
    /// CBOR that is truncated, malformed or uses an unsupported encoding.
    case malformedCBOR = "malformed_cbor"
    /// A COSE public key with missing or inconsistent parameters.
    case malformedPublicKey = "malformed_public_key"
    /// A COSE algorithm or key type the server does not implement.
    case unsupportedAlgorithm = "unsupported_algorithm"
    /// A credential algorithm the registration options did not offer.
    case unexpectedAlgorithm = "unexpected_algorithm"
    /// The assertion signature does not verify.
    case badSignature = "bad_signature"
    /// The signature counter went back: a possible cloned authenticator; the credential is disabled.
    case signCountRegression = "sign_count_regression"
    /// The attested credential id differs from `rawId`, or is too long.
    case credentialIdMismatch = "credential_id_mismatch"
    /// A registration whose authenticatorData has no attested credential data.
    case missingCredentialData = "missing_credential_data"
    /// An attestation object or statement not shaped as its format requires.
    case malformedAttestation = "malformed_attestation"
    /// An attestation statement that was checked and does not hold.
    case attestationFailed = "attestation_failed"
    /// An attestation format the server cannot verify where its policy demands verification.
    case unsupportedAttestationFormat = "unsupported_attestation_format"

    // MARK: Payment authorization

    /// The payment's PIN or device signature did not check out (never says which).
    case authorizationFailed = "authorization_failed"
    /// Payment authorization locked after repeated failures; `retryAfter` says when it unlocks.
    case paymentLocked = "payment_locked"
    /// A verification token that is not one the server issued.
    case invalidToken = "invalid_token"
    /// A verification token past its lifetime.
    case tokenExpired = "token_expired"
    /// A verification token that was used already.
    case tokenReplayed = "token_replayed"
    /// A verification token issued to another user.
    case tokenWrongUser = "token_wrong_user"
    /// A verification token issued for a different payment.
    case intentMismatch = "intent_mismatch"

    // MARK: Wallet and airtime top-ups

    /// An amount that is not a positive number of minor units within the operation's limits.
    case invalidAmount = "invalid_amount"
    /// A top-up or funding amount outside the allowed range.
    case amountOutOfRange = "amount_out_of_range"
    /// An airtime `productCode` the server does not sell.
    case unknownProduct = "unknown_product"
    /// An airtime `supplierSlug` the server does not know.
    case unknownSupplier = "unknown_supplier"
    /// A supplier that does not sell the product asked for.
    case supplierMismatch = "supplier_mismatch"
    /// A top-up with neither a verification token nor a PIN.
    case authorizationRequired = "authorization_required"
    /// A top-up with both a verification token and a PIN.
    case ambiguousAuthorization = "ambiguous_authorization"
    /// A verification token that is too long to be one.
    case invalidVerificationToken = "invalid_verification_token"
    /// An `Idempotency-Key` that is not 1 to 255 characters.
    case invalidIdempotencyKey = "invalid_idempotency_key"
    /// `POST /transfers` without an `Idempotency-Key`.
    case missingIdempotencyKey = "missing_idempotency_key"
    /// A request with this `Idempotency-Key` is still being processed.
    case idempotencyInFlight = "idempotency_in_flight"
    /// An `Idempotency-Key` used before with a different request body.
    case idempotencyKeyReused = "idempotency_key_reused"
    /// The wallet balance (or, at the payment provider, the card) has too little money.
    case insufficientFunds = "insufficient_funds"
    /// A payment over one of the payer's spending limits (per payment, per day, per 30 days); the
    /// error body's `limit` says which and what remains.
    case limitExceeded = "limit_exceeded"
    /// A transfer would take the payee over the most their wallet may hold. Says nothing of their balance.
    case payeeLimitExceeded = "payee_limit_exceeded"
    /// A limit set above the tier's (`PUT /user/limits`).
    case limitAboveTier = "limit_above_tier"
    /// A tier the server is not configured with (`PUT /operator/users/{userId}/tier`).
    case unknownTier = "unknown_tier"
    /// A top-up that was settled already.
    case alreadySettled = "already_settled"
    /// A `limit` that is not an integer from 1 to 100.
    case invalidLimit = "invalid_limit"
    /// A `cursor` that is not base64url.
    case invalidCursor = "invalid_cursor"
    /// A `cursor` that is not a `nextCursor` from an earlier page.
    case unknownCursor = "unknown_cursor"
    /// The operator's `wallet fund` names a phone number no user has (command line only).
    case unknownUser = "unknown_user"
    /// The operator's `wallet fund` repeats a reference that funded already (command line only).
    case duplicateReference = "duplicate_reference"

    // MARK: Transfers

    /// A transfer note that is too long or has control characters.
    case invalidNote = "invalid_note"
    /// A transfer in a currency the server does not use.
    case unsupportedCurrency = "unsupported_currency"
    /// A transfer to the payer's own phone number.
    case selfTransfer = "self_transfer"
    /// No verified Countersign wallet is registered to the payee's number.
    case payeeNotFound = "payee_not_found"
    /// The payee's account has not confirmed its phone number yet.
    case payeeUnverified = "payee_unverified"
    /// No transfer with this id for this user.
    case transferNotFound = "transfer_not_found"
    /// A command that does not apply to the transfer's, bid's or order's current state.
    case invalidState = "invalid_state"
    /// The transfer is changing under another request; try again.
    case transferBusy = "transfer_busy"
    /// The transfer's quote expired before it was authorized.
    case quoteExpired = "quote_expired"
    /// A transfer whose processing kept failing on the server ended in `FAILED`; nothing was
    /// charged. Only ever a failed transfer's `error.code`, never an HTTP answer's.
    case processingFailed = "processing_failed"
    /// An authorized transfer without its quote or payee ended in `FAILED`; nothing moved. Only ever
    /// a failed transfer's `error.code`, never an HTTP answer's.
    case internalInconsistency = "internal_inconsistency"
    /// A `Last-Event-ID` that is not a non-negative integer.
    case invalidLastEventId = "invalid_last_event_id"

    // MARK: Marketplace

    /// A product title that is empty or too long.
    case invalidTitle = "invalid_title"
    /// An address's first line that is empty or too long.
    case invalidLine1 = "invalid_line1"
    /// An address's city that is empty or too long.
    case invalidCity = "invalid_city"
    /// An address's postal code that is empty or too long.
    case invalidPostalCode = "invalid_postalCode"
    /// A country that is not an ISO 3166-1 alpha-2 code.
    case invalidCountry = "invalid_country"
    /// A `seller` filter other than `me`.
    case invalidSeller = "invalid_seller"
    /// A product offering a shipping method the server does not have.
    case unknownShippingMethod = "unknown_shipping_method"
    /// A product with neither pickup nor a shipping method.
    case noDeliveryMethod = "no_delivery_method"
    /// No product with this id (or none of the user's).
    case productNotFound = "product_not_found"
    /// A bid on the bidder's own product.
    case ownProduct = "own_product"
    /// Another bid holds the product, or it is sold.
    case productUnavailable = "product_unavailable"
    /// A bid on a product that is sold.
    case productSold = "product_sold"
    /// No bid with this id for this user.
    case bidNotFound = "bid_not_found"
    /// An action only the seller may take.
    case notSeller = "not_seller"
    /// An action only the buyer may take.
    case notBuyer = "not_buyer"
    /// An operator console call by a user who is not an operator (`countersign operator grant`).
    case notOperator = "not_operator"
    /// An operator console action on the operator's own account.
    case ownAccount = "own_account"
    /// A webhook URL that is not https, too long, or names an internal address.
    case webhookURLRefused = "webhook_url_refused"
    /// A webhook subscription to an event type the server does not send.
    case unknownWebhookEvent = "unknown_webhook_event"
    /// The most webhook endpoints a server keeps are registered already.
    case webhookEndpointLimit = "webhook_endpoint_limit"
    /// No live webhook endpoint with this id.
    case webhookEndpointNotFound = "webhook_endpoint_not_found"
    /// The webhook endpoint was never sent this event.
    case webhookEventNotFound = "webhook_event_not_found"
    /// Checkout of a bid that is not accepted.
    case bidNotAccepted = "bid_not_accepted"
    /// A delivery choice the product does not offer.
    case deliveryUnavailable = "delivery_unavailable"
    /// Shipping chosen without an address.
    case addressRequired = "address_required"
    /// No address with this id for this user.
    case addressNotFound = "address_not_found"
    /// The shipping method does not ship to the address's country.
    case noRoute = "no_route"
    /// Totals cannot be computed for these choices.
    case totalsUnavailable = "totals_unavailable"
    /// No order with this id (or for this bid) for this user.
    case orderNotFound = "order_not_found"
    /// The order is canceled or expired.
    case orderClosed = "order_closed"
    /// The order is changing under another request; try again.
    case orderBusy = "order_busy"
    /// The order is paid already.
    case orderPaid = "order_paid"
    /// A payment for this bid or order is under way; wait for its outcome.
    case paymentInProgress = "payment_in_progress"
    /// A card payment without `paymentMethodId`.
    case paymentMethodRequired = "payment_method_required"
    /// A `returnURL` that is not an allowed absolute URL.
    case invalidReturnURL = "invalid_return_url"
    /// A payment that may redirect, without `returnURL`.
    case returnURLRequired = "return_url_required"
    /// A refund of more than the order has left to refund; the message says how much is left.
    case refundExceedsPaid = "refund_exceeds_paid"
    /// A refund's reason that is empty or too long.
    case invalidReason = "invalid_reason"
    /// A reversal that would take a wallet below zero; the message and `available` say what it has.
    case reversalInsufficientFunds = "reversal_insufficient_funds"
    /// A transfer or funding that was reversed already.
    case alreadyReversed = "already_reversed"
    /// No refund with this id at the payment provider.
    case refundNotFound = "refund_not_found"
    /// A simulated refund that has ended already.
    case refundNotPending = "refund_not_pending"
    /// The payment provider reports an amount or currency that differs from the order's.
    case paymentMismatch = "payment_mismatch"

    // MARK: Wallet fundings

    /// No funding with this id for this user (or, for an operator's reversal, no operator funding with
    /// this transaction id).
    case fundingNotFound = "funding_not_found"
    /// Less than the smallest amount one funding may add.
    case fundingBelowMinimum = "funding_below_minimum"
    /// More than the largest amount one funding may add.
    case fundingAboveMaximum = "funding_above_maximum"
    /// A funding's `returnURL` that is not an absolute URL at one of the server's return origins or
    /// app schemes (a semantic refusal: any text of the right length is well-formed here).
    case returnURLNotAllowed = "return_url_not_allowed"
    /// The payment method is not offered for this currency (iDEAL and Bancontact are euro only).
    case paymentMethodNotOffered = "payment_method_not_offered"

    // MARK: Payment provider and webhooks

    /// No saved card with this id.
    case paymentMethodNotFound = "payment_method_not_found"
    /// No payment intent with this id.
    case paymentIntentNotFound = "payment_intent_not_found"
    /// The payment intent is not in a state that allows this.
    case paymentIntentUnexpectedState = "payment_intent_unexpected_state"
    /// The saved card belongs to another user.
    case cardNotOwned = "card_not_owned"
    /// Not a valid card number.
    case invalidCardNumber = "invalid_card_number"
    /// A card expiry that is out of range or past.
    case invalidExpiry = "invalid_expiry"
    /// In Stripe's test mode, a card number other than the documented test cards.
    case unsupportedTestCard = "unsupported_test_card"
    /// A card number sent to a server in live mode, where cards are collected by Stripe.
    case cardEntryNotSupported = "card_entry_not_supported"
    /// The card was declined when saved.
    case cardDeclined = "card_declined"
    /// The payment provider refused a parameter; the message names it.
    case invalidRequest = "invalid_request"
    /// The payment provider has no such object (e.g. a customer deleted on its side).
    case resourceMissing = "resource_missing"
    /// The payment provider cannot be reached or failed; nothing changed, try again shortly.
    case paymentProviderUnavailable = "payment_provider_unavailable"
    /// A payment webhook without a valid signature header.
    case invalidSignature = "invalid_signature"
    /// A payment webhook signed outside the timestamp tolerance.
    case staleSignature = "stale_signature"
}
