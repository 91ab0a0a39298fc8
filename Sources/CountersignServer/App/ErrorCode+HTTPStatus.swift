import CountersignAPI
import HTTPTypes

extension ErrorCode {
    /// The HTTP status every refusal with this code is sent with: the one place codes meet HTTP,
    /// as openapi.yaml documents them. (One exception, also documented: revoking a device key that
    /// is not there is 404 `unknown_credential`, by its owner or by an operator; see
    /// `BiometricController.revokeCredential` and `OperatorController.revokeKey`.)
    package var status: HTTPResponse.Status {
        switch self {
        case .badRequest, .invalidJSON, .missingField, .invalidType, .invalidValue, .invalidPhone, .invalidName,
            .invalidPin,
            .ambiguousStepUp, .invalidBase64URL, .idMismatch, .malformedClientData, .malformedAuthenticatorData,
            .malformedCBOR,
            .malformedPublicKey, .malformedAttestation, .invalidAmount, .amountOutOfRange, .unknownProduct,
            .unknownSupplier,
            .authorizationRequired, .ambiguousAuthorization, .invalidVerificationToken, .invalidIdempotencyKey,
            .missingIdempotencyKey, .invalidLimit, .invalidCursor, .invalidNote, .invalidLastEventId, .invalidTitle,
            .invalidLine1,
            .invalidCity, .invalidPostalCode, .invalidCountry, .invalidSeller, .paymentMethodRequired,
            .invalidReturnURL,
            .returnURLRequired, .invalidSignature, .staleSignature:
            .badRequest
        case .unauthenticated, .invalidCredentials, .passkeySignInFailed, .stepUpRequired, .stepUpFailed,
            .invalidChallenge,
            .unknownCredential, .credentialFlagged, .wrongType, .paymentDataMismatch, .challengeMismatch,
            .originNotAllowed,
            .crossOriginRefused, .rpIdHashMismatch, .userNotPresent, .userNotVerified, .invalidBackupFlags,
            .unsupportedAlgorithm,
            .unexpectedAlgorithm, .badSignature, .signCountRegression, .credentialIdMismatch, .missingCredentialData,
            .attestationFailed, .unsupportedAttestationFormat, .authorizationFailed, .invalidToken, .tokenExpired,
            .tokenReplayed, .phoneCodeRequired, .invalidCode, .codeExpired:
            .unauthorized
        case .originRefused, .syncedPasskeyRefused, .authenticatorNotAllowed, .authenticatorCompromised,
            .attestationUntrusted, .tokenWrongUser, .intentMismatch, .notSeller, .notBuyer, .notOperator, .ownAccount,
            .pinCoolingOff, .deviceCoolingOff, .newDeviceLimit, .strongAuthenticationRequired:
            .forbidden
        case .notFound, .transferNotFound, .fundingNotFound, .refundNotFound, .productNotFound, .bidNotFound,
            .addressNotFound, .orderNotFound, .unknownUser, .webhookEndpointNotFound, .webhookEventNotFound,
            .paymentMethodNotFound, .paymentIntentNotFound, .resourceMissing, .unknownDevice:
            .notFound
        case .methodNotAllowed:
            .methodNotAllowed
        case .phoneTaken, .credentialExists, .idempotencyInFlight, .alreadySettled, .duplicateReference, .invalidState,
            .transferBusy,
            .quoteExpired, .productUnavailable, .productSold, .bidNotAccepted, .orderClosed, .orderBusy, .orderPaid,
            .paymentInProgress,
            .paymentIntentUnexpectedState, .alreadyReversed, .refundNotPending:
            .conflict
        case .bodyTooLarge:
            .contentTooLarge
        case .unsupportedMediaType:
            .unsupportedMediaType
        case .webhookURLRefused, .unknownWebhookEvent, .webhookEndpointLimit, .noRegisteredCredential,
            .supplierMismatch,
            .idempotencyKeyReused, .insufficientFunds, .unknownCursor,
            .limitExceeded, .payeeLimitExceeded, .limitAboveTier, .unknownTier,
            .unsupportedCurrency, .selfTransfer, .payeeNotFound, .payeeUnverified, .unknownShippingMethod,
            .noDeliveryMethod, .ownProduct,
            .deliveryUnavailable,
            .addressRequired, .noRoute, .totalsUnavailable, .cardNotOwned, .invalidCardNumber, .invalidExpiry,
            .unsupportedTestCard, .cardEntryNotSupported, .cardDeclined, .invalidRequest, .samePhone, .weakPin,
            .unknownCountry, .refundExceedsPaid, .invalidReason, .reversalInsufficientFunds, .fundingBelowMinimum,
            .fundingAboveMaximum, .paymentMethodNotOffered, .returnURLNotAllowed:
            .unprocessableContent
        case .loginLocked, .pinLocked, .paymentLocked, .pinResetRequired:
            .locked
        case .rateLimited, .pinChecksBusy:
            .tooManyRequests
        // The last two are only a failed transfer's code; were one ever answered, it would be this.
        case .internalError, .processingFailed, .internalInconsistency:
            .internalServerError
        case .paymentMismatch, .paymentProviderUnavailable:
            .badGateway
        case .databaseUnavailable, .serverBusy:
            .serviceUnavailable
        }
    }
}

extension HTTPResponse.Status {
    /// 423: an action locked after repeated failures (payments, the PIN, login).
    package static let locked = HTTPResponse.Status(code: 423, reasonPhrase: "Locked")
}
