import CountersignClient
import Crypto
import Testing
import WebAuthn

/// Secure Payment Confirmation: `payment.get` is accepted only where a confirmation was issued, and
/// then only if its `payment` member shows exactly what was issued.
@Suite("Secure Payment Confirmation (payment.get)")
struct SecurePaymentConfirmationTests {
    let authenticator = DeviceAuthenticator(rpId: "pay.countersign.test", origin: "https://pay.countersign.test")
    let challenge = (0..<32).map { UInt8($0) }
    static let icon = "data:image/png;base64,iVBORw0KGgo="
    static let issued = SecurePaymentConfirmation(
        payeeName: "Countersign", payeeOrigin: "https://pay.countersign.test",
        total: .init(currency: "NGN", value: "5.00"),
        instrument: .init(displayName: "Countersign wallet", icon: icon)
    )

    /// The `payment` member exactly as Chromium writes it (content/browser/webauth/client_data_json.cc):
    /// rpId, topOrigin, payeeName, payeeOrigin, total {value, currency}, instrument {icon, displayName}.
    static func member(
        rpId: String = "pay.countersign.test", topOrigin: String = "https://pay.countersign.test",
        payeeName: String? = "Countersign",
        payeeOrigin: String? = "https://pay.countersign.test", value: String = "5.00", currency: String = "NGN",
        displayName: String = "Countersign wallet", icon: String = icon, extra: String = "",
        instrumentExtra: String = ""
    ) -> String {
        var json = #""payment":{"rpId":"\#(rpId)","topOrigin":"\#(topOrigin)""#
        if let payeeName { json += #","payeeName":"\#(payeeName)""# }
        if let payeeOrigin { json += #","payeeOrigin":"\#(payeeOrigin)""# }
        json +=
            #","total":{"value":"\#(value)","currency":"\#(currency)"},"instrument":{"icon":"\#(icon)","displayName":"\#(displayName)"\#(instrumentExtra)}\#(extra)}"#
        return json
    }

    /// A whole clientDataJSON in the browser's member order, with Chromium's occasional extra key.
    func clientData(type: String = "payment.get", payment: String? = member(), grease: Bool = true) -> String {
        var json =
            #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"https://pay.countersign.test","crossOrigin":false"#
        if let payment { json += "," + payment }
        if grease {
            json +=
                #","other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex""#
        }
        return json + "}"
    }

    func verify(_ clientDataJSON: String, payment: SecurePaymentConfirmation?) throws -> Result<
        VerifiedAssertion, WebAuthnError
    > {
        let client = Array(clientDataJSON.utf8)
        let authData = Array(SHA256.hash(data: Array("pay.countersign.test".utf8))) + [0x05] + [0, 0, 0, 1]
        let signature = Array(
            try authenticator.privateKey.signature(for: authData + SHA256.hash(data: client)).derRepresentation)
        let key = try CredentialPublicKey(cose: authenticator.credentialPublicKeyCOSE)
        let verifier = AssertionVerifier(relyingParty: TestSupport.relyingParty)
        return Result { () throws(WebAuthnError) in
            try verifier.verify(
                clientDataJSON: client, authenticatorData: authData, signature: signature, expectedChallenge: challenge,
                credentialPublicKey: key,
                storedSignCount: 0, userVerificationRequired: true, payment: payment
            )
        }
    }

    @Test("a browser's payment.get, extra members and all, verifies where the confirmation was issued")
    func accepted() throws {
        #expect(try verify(clientData(), payment: Self.issued).get().signCount == 1)
        #expect(try verify(clientData(grease: false), payment: Self.issued).get().signCount == 1)
        // Newer members the browser may add are read past, not refused.
        let newer = Self.member(
            extra: #","browserBoundPublicKey":"pQECAyYgASFY""#,
            instrumentExtra: #","details":"Visa •••• 4242""#
        ).replacingOccurrences(
            of: #","total""#, with: #","paymentEntitiesLogos":[{"url":"https://x.test/l.png","label":"Net"}],"total""#)
        #expect(try verify(clientData(payment: newer), payment: Self.issued).get().signCount == 1)
        // No payee origin issued, none shown.
        var nameOnly = Self.issued
        nameOnly.payeeOrigin = nil
        #expect(try verify(clientData(payment: Self.member(payeeOrigin: nil)), payment: nameOnly).get().signCount == 1)
    }

    @Test("webauthn.get is unchanged, with or without a confirmation issued")
    func webauthnGetUnchanged() throws {
        #expect(try verify(clientData(type: "webauthn.get", payment: nil), payment: nil).get().signCount == 1)
        #expect(try verify(clientData(type: "webauthn.get", payment: nil), payment: Self.issued).get().signCount == 1)
    }

    @Test("payment.get where no confirmation was issued (step-up, sign-in) is wrong_type")
    func refusedElsewhere() throws {
        #expect(try verify(clientData(), payment: nil).failure?.code == .wrongType)
        #expect(try verify(clientData(type: "webauthn.create"), payment: Self.issued).failure?.code == .wrongType)
    }

    @Test(
        "each member that differs from what was issued is payment_data_mismatch",
        arguments: [
            ("rpId", SecurePaymentConfirmationTests.member(rpId: "evil.test")),
            ("topOrigin", SecurePaymentConfirmationTests.member(topOrigin: "https://evil.test")),
            ("payeeName", SecurePaymentConfirmationTests.member(payeeName: "Someone else")),
            ("payeeName absent", SecurePaymentConfirmationTests.member(payeeName: nil)),
            ("payeeOrigin", SecurePaymentConfirmationTests.member(payeeOrigin: "https://evil.test")),
            ("payeeOrigin absent", SecurePaymentConfirmationTests.member(payeeOrigin: nil)),
            ("total value", SecurePaymentConfirmationTests.member(value: "500.00")),
            ("total value spelled otherwise", SecurePaymentConfirmationTests.member(value: "5.0")),
            ("total currency", SecurePaymentConfirmationTests.member(currency: "EUR")),
            ("instrument name", SecurePaymentConfirmationTests.member(displayName: "Another card")),
            ("instrument icon", SecurePaymentConfirmationTests.member(icon: "https://evil.test/icon.png")),
        ])
    func mismatches(name: String, payment: String) throws {
        #expect(
            try verify(clientData(payment: payment), payment: Self.issued).failure?.code == .paymentDataMismatch,
            "\(name)")
    }

    @Test("payment.get without its payment member is payment_data_mismatch")
    func memberMissing() throws {
        #expect(try verify(clientData(payment: nil), payment: Self.issued).failure?.code == .paymentDataMismatch)
        #expect(
            try verify(clientData(payment: #""payment":null"#), payment: Self.issued).failure?.code
                == .paymentDataMismatch)
    }

    @Test(
        "the payment member is parsed with SPC's shape and limits",
        arguments: [
            #""payment":"yes""#,
            #""payment":{"rpId":1}"#,
            #""payment":{"total":{"value":5,"currency":"NGN"}}"#,
            #""payment":{"total":{"value":"5.00"}}"#,
            #""payment":{"instrument":"wallet"}"#,
            #""payment":{"payeeName":"a","payeeName":"b"}"#,
            #""payment":{"total":{"value":"1","value":"2","currency":"NGN"}}"#,
            #""payment":{"payeeName":"\#(String(repeating: "a", count: 8_193))"}"#,
            #""payment":{"rpId":"a"},"payment":{"rpId":"a"}"#,
            #""payment":{"rpId":"a","#,
        ])
    func malformed(payment: String) {
        let json = Array(clientData(payment: payment).utf8)
        #expect(
            TestSupport.error { () throws(WebAuthnError) in try CollectedClientData(json: json) }?.code
                == .malformedClientData, "\(payment.prefix(60))")
    }

    @Test("the parsed member carries what the browser showed")
    func parsed() throws {
        let parsed = try CollectedClientData(json: Array(clientData().utf8))
        let payment = try #require(parsed.payment)
        #expect(parsed.type == "payment.get" && parsed.crossOrigin == false && parsed.topOrigin == nil)
        #expect(payment.rpId == "pay.countersign.test" && payment.topOrigin == "https://pay.countersign.test")
        #expect(payment.payeeName == "Countersign" && payment.payeeOrigin == "https://pay.countersign.test")
        #expect(payment.total == .init(currency: "NGN", value: "5.00"))
        #expect(payment.instrument == .init(displayName: "Countersign wallet", icon: Self.icon))
        #expect(
            try CollectedClientData(json: Array(clientData(type: "webauthn.get", payment: nil).utf8)).payment == nil)
    }
}
