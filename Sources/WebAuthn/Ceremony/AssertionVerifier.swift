import Crypto

/// Verifies authentication ceremonies (WebAuthn §7.2) for one relying party.
public struct AssertionVerifier: Sendable {
    /// The relying party assertions must be scoped to.
    public let relyingParty: RelyingParty

    /// Creates a verifier for `relyingParty`.
    public init(relyingParty: RelyingParty) {
        self.relyingParty = relyingParty
    }

    /// WebAuthn §7.2 in full. Returns on success; throws `WebAuthnError` with a stable code otherwise.
    ///
    /// The caller has already looked up the credential by its ID and passes its stored public key and counter.
    /// On `signCountRegression` the signature was valid but the counter did not rise: flag the credential.
    ///
    /// `payment` is what a Secure Payment Confirmation for this challenge showed. Only then is a clientDataJSON
    /// of type `payment.get` accepted, and its `payment` member must match it (`paymentDataMismatch`);
    /// `webauthn.get` is accepted either way. Without it, `payment.get` is `wrongType`.
    public func verify(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        expectedChallenge: [UInt8], credentialPublicKey: CredentialPublicKey,
        storedSignCount: UInt32, userVerificationRequired: Bool, payment: SecurePaymentConfirmation? = nil
    ) throws(WebAuthnError) -> VerifiedAssertion {
        // §7.2 steps 10–14: parse clientDataJSON; type, challenge, origin, topOrigin.
        let clientData = try CollectedClientData(json: clientDataJSON)
        try clientData.check(
            types: payment == nil ? ["webauthn.get"] : ["webauthn.get", "payment.get"], challenge: expectedChallenge,
            relyingParty: relyingParty)
        if let payment, clientData.type == "payment.get" {
            // SPC: what the browser showed is part of what the authenticator signs; it must be what we issued.
            guard let shown = clientData.payment else {
                throw WebAuthnError(.paymentDataMismatch, "a payment.get clientDataJSON without its payment member")
            }
            try shown.check(against: payment, relyingParty: relyingParty)
        }

        let authData = try AuthenticatorData(authenticatorData)
        // §7.2 step 15: rpIdHash.
        try Ceremony.checkRPIDHash(authData, relyingParty)
        // §7.2 steps 16–18: UP, UV when required, BE/BS consistency (§6.1: BS without BE is invalid).
        try Ceremony.checkUserFlags(authData.flags, userVerificationRequired: userVerificationRequired)

        // §7.2 steps 20–21: the signature covers authenticatorData || SHA-256(clientDataJSON).
        var signedData = authenticatorData
        signedData.reserveCapacity(authenticatorData.count + SHA256.byteCount)
        signedData.append(contentsOf: SHA256.hash(data: clientDataJSON))
        guard credentialPublicKey.verify(signature: signature, over: signedData) else {
            throw WebAuthnError(.badSignature, "the assertion signature does not verify with the credential public key")
        }

        // §7.2 step 22: if either counter is non-zero, the new one must be greater; 0/0 means "no counter".
        let signCount = authData.signCount
        if signCount != 0 || storedSignCount != 0, signCount <= storedSignCount {
            throw WebAuthnError(
                .signCountRegression, "signature counter \(signCount) is not above the stored \(storedSignCount)")
        }
        return VerifiedAssertion(signCount: signCount, flags: authData.flags)
    }
}

/// What a successful assertion tells the relying party to store.
public struct VerifiedAssertion: Sendable, Equatable {
    /// The authenticator's new signature counter: store it for the next comparison.
    public let signCount: UInt32
    /// The flags, including the current backup state to store.
    public let flags: AuthenticatorFlags

    /// Creates a result.
    public init(signCount: UInt32, flags: AuthenticatorFlags) {
        self.signCount = signCount
        self.flags = flags
    }
}
