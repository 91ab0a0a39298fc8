import CountersignAPI
import CountersignCodec
import CountersignCore
import Foundation
import Testing

@testable import CountersignServer

/// The payment answers written directly must be the bytes `JSONEncoder` writes for the same value,
/// so a client, a stored replay and a signature over a response see no difference.
@Suite("JSON writer")
struct JSONWriterTests {
    /// Text that every escaping rule touches: quotes, backslashes, slashes, each control character,
    /// DEL, and scalars of two, three and four UTF-8 bytes.
    static let awkward: [String] = [
        "", "plain", #"a"b\c/d"#, String((0..<0x20).map { Character(UnicodeScalar(UInt8($0))) }), "\u{7F}",
        "é€😀\u{2028}\u{FEFF}", "https://shop.example/pay?x=1&y=<2>#top", "data:image/png;base64,iVBO+/=",
    ]

    @Test("options: every field, every optional present and absent, every awkward string")
    func options() throws {
        for (index, text) in Self.awkward.enumerated() {
            let confirmation = SecurePaymentConfirmationData(
                rpId: text, credentialIds: [text, "id-2"], challenge: text, payeeName: text,
                payeeOrigin: index.isMultiple(of: 2) ? nil : text, total: .init(currency: text, value: "5.00"),
                instrument: .init(displayName: text, icon: text), timeout: index.isMultiple(of: 3) ? .max : .min)
            let response = AuthenticationOptionsResponse(
                challenge: text, rpId: text,
                allowCredentials: index == 0
                    ? [] : [.init(id: text), .init(id: "b", type: text, transports: index == 1 ? [] : [text, "usb"])],
                userVerification: text, timeout: 60_000 * index,
                transaction: PaymentIntent(
                    kind: text, amount: index.isMultiple(of: 2) ? .max : .min, currency: text, productCode: text,
                    recipientPhone: text, supplierSlug: text),
                nonce: text, securePaymentConfirmation: index.isMultiple(of: 4) ? nil : confirmation,
                pinAllowed: [nil, true, false][index % 3])
            try #expect(written(response) == encoded(response), "\(Array(text.utf8))")
        }
    }

    @Test("verify: verified and refused answers")
    func verify() throws {
        let answers = Self.awkward.flatMap { text in
            [
                AuthenticationVerifyResponse(verified: true, verificationToken: text, expiresIn: 300, message: text),
                AuthenticationVerifyResponse(verified: false, message: text, code: text, retryAfter: .max),
                AuthenticationVerifyResponse(verified: false, expiresIn: .min, message: text),
            ]
        }
        for answer in answers {
            try #expect(written(answer) == encoded(answer))
        }
    }

    @Test("top-up: the stored replay text has sorted keys, the same text for the same value")
    func topUp() throws {
        for (index, text) in Self.awkward.enumerated() {
            let data = TopUpResponse.Data(
                transactionId: text, status: text, amount: .max, balance: index.isMultiple(of: 2) ? .min : 0,
                timestamp: text, cashbackUsed: index.isMultiple(of: 2) ? nil : 3,
                cashbackEarned: index.isMultiple(of: 3) ? nil : -7)
            let response = TopUpResponse(
                success: index.isMultiple(of: 2), message: text, code: index == 1 ? nil : text, data: data)
            try #expect(written(response) == encoded(response))
            #expect(TopUpResponse.encodedForReplay(response) == String(decoding: written(response), as: UTF8.self))
        }
    }

    @Test("a transfer quote, fee lines and all, and its canonical form beside it")
    func quote() throws {
        for text in Self.awkward {
            let quote = TransferQuote(
                quoteId: text, transferId: text, payeePhone: text, amount: .max,
                fees: [.init(name: text, amount: 0), .init(name: "b", amount: .min)], totalFees: 1, total: -1,
                currency: text, expiresAt: text)
            try #expect(written(quote) == encoded(quote))
            // The canonical form differs only in escaping: no `\/`, `\b` or `\f`.
            let canonical = String(decoding: quote.canonicalBytes, as: UTF8.self)
            let expected = String(decoding: written(quote), as: UTF8.self)
                .replacingOccurrences(of: #"\/"#, with: "/").replacingOccurrences(of: #"\b"#, with: #"\u0008"#)
                .replacingOccurrences(of: #"\f"#, with: #"\u000c"#)
            #expect(canonical == expected)
        }
    }

    @Test("every stored property is written: a property added to a type and not to its writer fails here")
    func everyPropertyWritten() throws {
        let intent = PaymentIntent(
            amount: 1, currency: "NGN", productCode: "P", recipientPhone: "080", supplierSlug: "mtn")
        let confirmation = SecurePaymentConfirmationData(
            rpId: "r", credentialIds: ["c"], challenge: "x", payeeName: "p", payeeOrigin: "https://o",
            total: .init(currency: "NGN", value: "1.00"), instrument: .init(displayName: "d", icon: "i"), timeout: 1)
        let values: [any JSONWritable] = [
            AuthenticationOptionsResponse(
                challenge: "c", rpId: "r", allowCredentials: [], userVerification: "u", timeout: 1, transaction: intent,
                nonce: "n", securePaymentConfirmation: confirmation, pinAllowed: true),
            AuthenticationVerifyResponse(
                verified: true, verificationToken: "t", expiresIn: 1, message: "m", code: "c", retryAfter: 1),
            CredentialDescriptor(id: "i", transports: ["usb"]), confirmation, confirmation.instrument,
            confirmation.total, intent,
            TopUpResponse(
                success: true, message: "m", code: "c",
                data: .init(
                    transactionId: "t", status: "s", amount: 1, balance: 1, timestamp: "x", cashbackUsed: 1,
                    cashbackEarned: 1)),
            TransferQuote(
                quoteId: "q", transferId: "t", payeePhone: "p", amount: 1, fees: [.init(name: "f", amount: 1)],
                totalFees: 1, total: 2, currency: "NGN", expiresAt: "x"),
            TransferQuote.Fee(name: "f", amount: 1),
        ]
        for value in values {
            let object = try #require(JSONSerialization.jsonObject(with: Data(value.jsonBytes())) as? [String: Any])
            #expect(
                object.count == Mirror(reflecting: value).children.count,
                "\(type(of: value)) writes \(object.keys.sorted())")
        }
    }

    private func written(_ value: some JSONWritable) -> [UInt8] {
        value.jsonBytes()
    }

    private func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(value))
    }
}
