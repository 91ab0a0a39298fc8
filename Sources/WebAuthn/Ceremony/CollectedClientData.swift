import CountersignCodec

/// The members of clientDataJSON (WebAuthn §5.8.1) that a relying party checks. Unknown members are ignored.
package struct CollectedClientData: Decodable, Sendable {
    /// `webauthn.create`, `webauthn.get`, or `payment.get` (Secure Payment Confirmation).
    package let type: String
    /// The challenge, base64url-encoded.
    package let challenge: String
    /// The origin of the caller, e.g. `https://example.org` or `android:apk-key-hash:…`.
    package let origin: String
    /// True when the ceremony ran in an iframe whose origin differs from its ancestors'.
    package let crossOrigin: Bool?
    /// The top-level origin, set only for cross-origin ceremonies.
    package let topOrigin: String?
    /// What a Secure Payment Confirmation showed (`payment.get`); nil when absent.
    package let payment: CollectedPaymentData?

    /// Creates client data from its members.
    package init(
        type: String, challenge: String, origin: String, crossOrigin: Bool? = nil, topOrigin: String? = nil,
        payment: CollectedPaymentData? = nil
    ) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.payment = payment
    }

    /// Parses clientDataJSON as JSON (RFC 8259), so member order, escapes such as `\/` and extra members do not matter.
    package init(json: [UInt8]) throws(WebAuthnError) {
        guard let parsed = ClientDataJSONParser.parse(json) else {
            throw WebAuthnError(
                .malformedClientData, "clientDataJSON is not a JSON object with string type, challenge and origin")
        }
        self = parsed
    }

    /// WebAuthn §7.1 steps 7–10 and §7.2 steps 11–14: type, challenge, origin, then the cross-origin policy.
    package func check(type expectedType: String, challenge expected: [UInt8], relyingParty: RelyingParty)
        throws(WebAuthnError)
    {
        try check(types: [expectedType], challenge: expected, relyingParty: relyingParty)
    }

    /// As `check(type:…)`, with the types this call site accepts (`webauthn.get`, and `payment.get` on a payment path).
    package func check(types expectedTypes: [String], challenge expected: [UInt8], relyingParty: RelyingParty)
        throws(WebAuthnError)
    {
        guard expectedTypes.contains(type) else {
            throw WebAuthnError(
                .wrongType,
                "clientDataJSON type is \"\(type)\", expected \(expectedTypes.map { "\"\($0)\"" }.joined(separator: " or "))"
            )
        }
        guard let received = Base64URL.decode(challenge) else {
            throw WebAuthnError(.malformedClientData, "clientDataJSON challenge is not base64url")
        }
        // Compare the decoded bytes, not the text: padding or alphabet quirks must not matter.
        guard ConstantTime.equal(received, expected) else {
            throw WebAuthnError(.challengeMismatch, "clientDataJSON challenge is not the one issued")
        }
        guard relyingParty.origins.contains(origin) else {
            throw WebAuthnError(.originNotAllowed, "origin \(origin) is not allowed")
        }
        if !relyingParty.allowCrossOrigin {
            // A topOrigin only appears in cross-origin ceremonies, so it is refused even without crossOrigin true.
            guard crossOrigin != true, topOrigin == nil else {
                throw WebAuthnError(
                    .crossOriginRefused,
                    "cross-origin ceremonies are not allowed" + (topOrigin.map { " (top origin \($0))" } ?? ""))
            }
        }
    }
}
