import CountersignAPI
import CountersignCodec
import CountersignCore

/// A `TransactionSigner` over the device key: it recomputes every challenge from what the user
/// saw and signs only when the server asked for exactly that (dynamic linking, PSD2 RTS Art. 5).
///
/// Run a `LocalAuthenticator` first: the assertions carry the user-verified flag.
public struct DeviceKeySigner: TransactionSigner {
    /// The device's WebAuthn credential.
    public let authenticator: DeviceAuthenticator

    /// A signer over `authenticator`, e.g. as loaded from a `DeviceKeyStore`.
    public init(authenticator: DeviceAuthenticator) {
        self.authenticator = authenticator
    }

    /// The credential's signature counter, to record in the key store after signing.
    public var signCount: UInt32 { authenticator.signCount }

    /// An assertion over `SHA-256(nonce ‖ quote)`, once the quote adds up and the challenge matches it.
    public func authorize(quote: TransferQuote, challenge: TransferChallenge) throws -> AuthenticationResponseJSON {
        guard quote.isConsistent else { throw SigningError.inconsistentQuote }
        let expected = try recompute(nonce: challenge.nonce, challenge: challenge.challenge, quote.challenge(nonce:))
        try checkScope(rpId: challenge.rpId, allowCredentials: challenge.allowCredentials)
        return authenticator.assertionResponse(challenge: expected)
    }

    /// An assertion over `SHA-256(nonce ‖ intent)` for the airtime intent `options.transaction`.
    public func authorize(airtime options: AuthenticationOptionsResponse) throws -> AuthenticationResponseJSON {
        let expected = try recompute(
            nonce: options.nonce, challenge: options.challenge, options.transaction.challenge(nonce:))
        try checkScope(rpId: options.rpId, allowCredentials: options.allowCredentials)
        return authenticator.assertionResponse(challenge: expected)
    }

    /// The challenge this device computes itself; it must equal the one the server sent.
    private func recompute(nonce: String, challenge: String, _ derive: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        guard let nonce = Base64URL.decode(nonce), !nonce.isEmpty else { throw SigningError.challengeMismatch }
        let expected = derive(nonce)
        guard Base64URL.encode(expected) == challenge else { throw SigningError.challengeMismatch }
        return expected
    }

    /// The request must be for this relying party and, when it names credentials, for this one.
    private func checkScope(rpId: String, allowCredentials: [CredentialDescriptor]) throws {
        guard rpId == authenticator.rpId else { throw SigningError.challengeMismatch }
        guard
            allowCredentials.isEmpty
                || allowCredentials.contains(where: { Base64URL.decode($0.id) == authenticator.credentialId })
        else { throw SigningError.noMatchingCredential }
    }
}
