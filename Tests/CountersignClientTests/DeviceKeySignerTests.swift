import CountersignAPI
import CountersignClient
import CountersignCore
import Testing
import WebAuthn

@Suite("Device key signer: signs what the user saw, and only that")
struct DeviceKeySignerTests {
    static let rpId = "localhost"
    static let origin = "http://localhost:8080"
    static let nonce: [UInt8] = Array(repeating: 9, count: 32)
    static let quote = TransferQuote(
        quoteId: "q_1", transferId: "tr_1", payeePhone: "+254700000001", amount: 100_000,
        fees: [.init(name: "Transfer fee", amount: 1_500), .init(name: "Excise duty", amount: 300)],
        totalFees: 1_800, total: 101_800, currency: "KES", expiresAt: "2030-01-01T00:00:00.000Z"
    )
    static let intent = PaymentIntent(
        amount: 5_000, currency: "KES", productCode: "AIRTIME_MTN", recipientPhone: "+254700000002", supplierSlug: "mtn"
    )

    let device = DeviceAuthenticator(rpId: DeviceKeySignerTests.rpId, origin: DeviceKeySignerTests.origin)

    /// The challenge a server would send for `quote`.
    func serverChallenge(
        for quote: TransferQuote, nonce: [UInt8] = DeviceKeySignerTests.nonce, rpId: String = DeviceKeySignerTests.rpId,
        allow: [CredentialDescriptor]? = nil
    ) -> TransferChallenge {
        TransferChallenge(
            challenge: Base64URL.encode(quote.challenge(nonce: nonce)), nonce: Base64URL.encode(nonce), rpId: rpId,
            allowCredentials: allow ?? [CredentialDescriptor(id: Base64URL.encode(device.credentialId))],
            userVerification: "required", timeout: 60_000
        )
    }

    /// The airtime options a server would send for `intent`.
    func serverOptions(for intent: PaymentIntent, nonce: [UInt8] = DeviceKeySignerTests.nonce)
        -> AuthenticationOptionsResponse
    {
        AuthenticationOptionsResponse(
            challenge: Base64URL.encode(intent.challenge(nonce: nonce)), rpId: Self.rpId,
            allowCredentials: [CredentialDescriptor(id: Base64URL.encode(device.credentialId))],
            userVerification: "required",
            timeout: 60_000, transaction: intent, nonce: Base64URL.encode(nonce)
        )
    }

    /// Verifies `response` as the server does, against `expectedChallenge`.
    func verify(_ response: AuthenticationResponseJSON, expectedChallenge: [UInt8]) throws -> UInt32 {
        let verifier = AssertionVerifier(
            relyingParty: RelyingParty(id: Self.rpId, name: "Countersign", origins: [Self.origin]))
        #expect(response.id == Base64URL.encode(device.credentialId))
        #expect(response.rawId == response.id)
        #expect(response.type == "public-key")
        let clientDataJSON = try #require(Base64URL.decode(response.response.clientDataJSON))
        let authenticatorData = try #require(Base64URL.decode(response.response.authenticatorData))
        let signature = try #require(Base64URL.decode(response.response.signature))
        return try verifier.verify(
            clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
            expectedChallenge: expectedChallenge,
            credentialPublicKey: try CredentialPublicKey(cose: device.credentialPublicKeyCOSE),
            storedSignCount: 0, userVerificationRequired: true
        ).signCount
    }

    /// Expects the signer to refuse with `error` without using the key.
    func expectRefusal(
        _ error: SigningError, quote: TransferQuote, challenge: TransferChallenge,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: error, sourceLocation: sourceLocation) {
            try DeviceKeySigner(authenticator: device).authorize(quote: quote, challenge: challenge)
        }
        #expect(device.signCount == 0, sourceLocation: sourceLocation)
    }

    @Test("a transfer assertion verifies with the WebAuthn verifier")
    func transferVerifies() throws {
        let response = try DeviceKeySigner(authenticator: device).authorize(
            quote: Self.quote, challenge: serverChallenge(for: Self.quote))
        #expect(try verify(response, expectedChallenge: Self.quote.challenge(nonce: Self.nonce)) == 1)
    }

    @Test("an airtime assertion verifies with the WebAuthn verifier")
    func airtimeVerifies() throws {
        let response = try DeviceKeySigner(authenticator: device).authorize(airtime: serverOptions(for: Self.intent))
        #expect(try verify(response, expectedChallenge: Self.intent.challenge(nonce: Self.nonce)) == 1)
    }

    @Test("with no allowCredentials any credential of the relying party may answer")
    func emptyAllowList() throws {
        let response = try DeviceKeySigner(authenticator: device).authorize(
            quote: Self.quote, challenge: serverChallenge(for: Self.quote, allow: []))
        #expect(try verify(response, expectedChallenge: Self.quote.challenge(nonce: Self.nonce)) == 1)
    }

    enum Tamper: String, CaseIterable, Sendable { case fee, amount, payee, nonce, rpId }

    @Test(
        "a challenge for other figures than the shown quote is refused and the counter stays",
        arguments: Tamper.allCases)
    func tamperedTransfer(_ tamper: Tamper) {
        var signed = Self.quote // what the server's challenge covers
        var challenge: TransferChallenge
        switch tamper {
        case .fee:
            signed.fees[0].amount += 1_000
            signed.totalFees += 1_000
            signed.total += 1_000
            challenge = serverChallenge(for: signed)
        case .amount:
            signed.amount += 1
            signed.total += 1
            challenge = serverChallenge(for: signed)
        case .payee:
            signed.payeePhone = "+254799999999"
            challenge = serverChallenge(for: signed)
        case .nonce:
            challenge = serverChallenge(for: Self.quote)
            challenge.nonce = Base64URL.encode(Array(repeating: 8, count: 32))
        case .rpId:
            challenge = serverChallenge(for: Self.quote, rpId: "evil.example")
        }
        expectRefusal(.challengeMismatch, quote: Self.quote, challenge: challenge)
    }

    @Test("a quote whose figures do not add up is refused before anything else")
    func inconsistentQuote() {
        var quote = Self.quote
        quote.total -= 1
        expectRefusal(.inconsistentQuote, quote: quote, challenge: serverChallenge(for: quote))
    }

    @Test("a request naming only other credentials is refused")
    func otherCredential() {
        let challenge = serverChallenge(
            for: Self.quote, allow: [CredentialDescriptor(id: Base64URL.encode([1, 2, 3]))])
        expectRefusal(.noMatchingCredential, quote: Self.quote, challenge: challenge)
    }

    @Test("airtime options whose challenge covers another amount, recipient or rpId are refused")
    func tamperedAirtime() {
        var other = Self.intent
        other.amount += 1
        var options = serverOptions(for: other)
        options.transaction = Self.intent
        var recipient = serverOptions(for: Self.intent)
        recipient.transaction.recipientPhone = "+254799999999"
        var rp = serverOptions(for: Self.intent)
        rp.rpId = "evil.example"
        for tampered in [options, recipient, rp] {
            #expect(throws: SigningError.challengeMismatch) {
                try DeviceKeySigner(authenticator: device).authorize(airtime: tampered)
            }
        }
        #expect(device.signCount == 0)
    }
}
