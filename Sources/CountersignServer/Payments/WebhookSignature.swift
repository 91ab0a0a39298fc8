import CountersignCodec
import Crypto
import Foundation

/// The signature on a payment provider's webhook, in Stripe's scheme: the header
/// `<name>: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, where the name is
/// `Countersign-Signature` (the simulator's events) or `Stripe-Signature` (Stripe's, with the
/// `whsec_…` secret as the key). A request older (or newer) than the tolerance is refused, so a
/// captured webhook cannot be replayed later.
package struct WebhookSignature: Sendable {
    let secret: [UInt8]
    /// The header it arrives in, for messages.
    let headerName: String
    /// Seconds a signature stays acceptable either side of now.
    let toleranceSeconds: Int64

    package init(secret: [UInt8], headerName: String = "Countersign-Signature", toleranceSeconds: Int64 = 300) {
        self.secret = secret
        self.headerName = headerName
        self.toleranceSeconds = toleranceSeconds
    }

    /// The header value for `body` signed at `timestamp` (unix seconds): what a provider sends.
    package func header(body: [UInt8], timestamp: Int64) -> String {
        "t=\(timestamp),v1=\(Self.hex(mac(body: body, timestamp: timestamp)))"
    }

    /// Checks `header` against `body` at `nowMillis`; 400 `invalid_signature` or `stale_signature`.
    package func verify(header: String?, body: [UInt8], nowMillis: Int64) throws(APIError) {
        guard let header else { throw APIError(.invalidSignature, "\(headerName) is missing.") }
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1", let bytes = Self.bytes(hex: pair[1]) { signatures.append(bytes) }
        }
        guard let timestamp, !signatures.isEmpty else {
            throw APIError(.invalidSignature, "\(headerName) must carry t= and v1=.")
        }
        // The timestamp is the sender's: any Int64 may arrive, so the difference is taken without
        // trapping (t = Int64.min once overflowed `now - t` and stopped the process).
        let (age, overflow) = (nowMillis / 1000).subtractingReportingOverflow(timestamp)
        guard !overflow, age.magnitude <= toleranceSeconds.magnitude else {
            throw APIError(.staleSignature, "The webhook's timestamp is outside the \(toleranceSeconds) s tolerance.")
        }
        let expected = mac(body: body, timestamp: timestamp)
        guard signatures.contains(where: { ConstantTime.equal($0, expected) }) else {
            throw APIError(.invalidSignature, "The webhook signature does not match.")
        }
    }

    private func mac(body: [UInt8], timestamp: Int64) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize())
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2), digits.count <= 128 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
