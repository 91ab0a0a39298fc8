import CountersignCore
import Testing

/// The canonical intent and the challenge derived from it: a client in any language must be able to
/// recompute both byte for byte.
@Suite("Payment intent")
struct PaymentIntentTests {
    let intent = PaymentIntent(
        amount: 500, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn")

    @Test("canonical bytes: sorted keys, no white space")
    func canonical() {
        #expect(
            String(decoding: intent.canonicalBytes, as: UTF8.self)
                == #"{"amount":500,"currency":"NGN","kind":"airtime_topup","productCode":"AIRTIME_MTN","recipientPhone":"08012345678","supplierSlug":"mtn"}"#
        )
    }

    @Test("the challenge matches the documented example, computed independently in Python")
    func documentedExample() throws {
        // openapi.yaml's worked example: nonce 1XX7Rd9l… gives challenge VCnXw7DU….
        let nonce = try #require(base64URLDecode("1XX7Rd9lxpM6VWfa_J5W94DLcXMo6lLRdxoznzaG3X4"))
        #expect(base64URLEncode(intent.challenge(nonce: nonce)) == "VCnXw7DURKR1i_bSjIAabJs3My4XsNsFxIxyUumcP7g")
    }

    @Test(
        "every field changes the challenge",
        arguments: [
            PaymentIntent(
                amount: 501, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                supplierSlug: "mtn"),
            PaymentIntent(
                amount: 500, currency: "EUR", productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                supplierSlug: "mtn"),
            PaymentIntent(
                amount: 500, currency: "NGN", productCode: "AIRTIME_GLO", recipientPhone: "08012345678",
                supplierSlug: "mtn"),
            PaymentIntent(
                amount: 500, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345679",
                supplierSlug: "mtn"),
            PaymentIntent(
                amount: 500, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                supplierSlug: "glo"),
            PaymentIntent(
                kind: "transfer", amount: 500, currency: "NGN", productCode: "AIRTIME_MTN",
                recipientPhone: "08012345678", supplierSlug: "mtn"),
        ])
    func everyFieldCounts(other: PaymentIntent) {
        let nonce = [UInt8](repeating: 9, count: 32)
        #expect(other.challenge(nonce: nonce) != intent.challenge(nonce: nonce))
        #expect(other.digest != intent.digest)
    }

    @Test("strings are escaped so no field can forge another")
    func escaping() {
        #expect(CanonicalJSON.quote(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(CanonicalJSON.quote("\u{01}\n") == #""\u0001\n""#)
        let forged = PaymentIntent(
            amount: 500, currency: "NGN", productCode: #"AIRTIME_MTN","recipientPhone":"1"#, recipientPhone: "2",
            supplierSlug: "mtn")
        #expect(
            String(decoding: forged.canonicalBytes, as: UTF8.self).contains(
                #""productCode":"AIRTIME_MTN\",\"recipientPhone\":\"1""#))
    }

    @Test("every character is quoted as JSON's escaping rules, scalar by scalar, spell it")
    func quotingMatchesScalarRules() {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["", "é", "€", "😀", "a\u{0}b", "\u{7F}\u{1F}\u{80}", "Ünïcödé \"quoted\" \\ \u{2028}", "\u{FEFF}x"]
        for text in texts {
            #expect(CanonicalJSON.quote(text) == scalarQuote(text), "\(Array(text.utf8))")
        }
        #expect(CanonicalJSON.quote("\u{1F}") == #""\u001f""#)
        #expect(CanonicalJSON.quote("\u{7F}é") == "\"\u{7F}é\"")
    }

    /// JSON's minimal escaping written out over scalars, as the spec states it, to hold the
    /// byte-level encoder to.
    private func scalarQuote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private func base64URLEncode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var output = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<(chunk.count + 1) { output.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return output
    }

    private func base64URLDecode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var bits = 0
        var count = 0
        var output: [UInt8] = []
        for character in text {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            bits = bits << 6 | value
            count += 6
            if count >= 8 {
                count -= 8
                output.append(UInt8((bits >> count) & 0xFF))
            }
        }
        return output
    }
}
