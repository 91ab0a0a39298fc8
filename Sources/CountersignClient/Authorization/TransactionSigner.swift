import CountersignAPI
import CountersignCore

/// Why a device refused to sign.
public enum SigningError: Error, Sendable, Equatable {
    /// The challenge is not `SHA-256(nonce ‖ canonical form)` of what the user was shown: the
    /// server (or someone between) asked for a signature over something else.
    case challengeMismatch
    /// The quote's own figures do not add up.
    case inconsistentQuote
    /// None of the allowed credentials is on this device.
    case noMatchingCredential
    /// The device key could not be used (locked, missing, damaged).
    case keyUnavailable(String)
}

/// Turns the device key into WebAuthn assertions for what the user saw, and only for that.
///
/// Implementations recompute the challenge from the nonce and the canonical form of the quote or
/// intent, and throw `SigningError.challengeMismatch` rather than sign anything else.
public protocol TransactionSigner: Sendable {
    /// An assertion authorizing the transfer `quote`, answering `challenge`.
    func authorize(quote: TransferQuote, challenge: TransferChallenge) throws -> AuthenticationResponseJSON
    /// An assertion authorizing the airtime `options.transaction`, answering `options.challenge`.
    func authorize(airtime options: AuthenticationOptionsResponse) throws -> AuthenticationResponseJSON
}
