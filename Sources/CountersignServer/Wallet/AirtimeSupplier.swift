import CountersignCore
import Crypto
import WebAuthn

/// An order for airtime, as sent to a supplier.
package struct AirtimeOrder: Sendable, Equatable {
    /// Our transaction id; suppliers use it as their idempotency reference.
    package let transactionId: String
    package let network: AirtimeNetwork
    package let recipientPhone: String
    package let amount: Int64
    package let currency: String
}

/// What a supplier said about an order.
package enum AirtimeOutcome: Sendable, Equatable {
    /// Delivered; `reference` is the supplier's receipt.
    case delivered(reference: String)
    /// Refused or failed; nothing was delivered, so the debit is reversed.
    case failed(code: String, message: String)
}

/// A seller of airtime (MTN, Airtel, Glo, 9mobile or an aggregator in front of them).
package protocol AirtimeSupplier: Sendable {
    /// Places the order. Must be idempotent on `order.transactionId`.
    func purchase(_ order: AirtimeOrder) async throws -> AirtimeOutcome
    /// What became of an order placed earlier, or nil if the supplier has no record of it (used to
    /// settle top-ups left pending by a crash).
    func outcome(ofTransaction transactionId: String, order: AirtimeOrder) async throws -> AirtimeOutcome?
}

/// The built-in supplier: a **simulator**, not a real network. Its outcomes are deterministic,
/// decided by the recipient's number:
/// - ends in `0000`: the supplier refuses (`supplier_rejected`): the debit is reversed, status `failed`;
/// - ends in `9999`: the supplier is unavailable (`supplier_unavailable`): likewise reversed, `failed`;
/// - anything else: delivered at once, with a receipt `SIM-<first 12 hex of SHA-256(transactionId)>`.
package struct SimulatedAirtimeSupplier: AirtimeSupplier {
    package init() {}

    package func purchase(_ order: AirtimeOrder) async throws -> AirtimeOutcome {
        Self.decide(order)
    }

    package func outcome(ofTransaction transactionId: String, order: AirtimeOrder) async throws -> AirtimeOutcome? {
        Self.decide(order)
    }

    static func decide(_ order: AirtimeOrder) -> AirtimeOutcome {
        if order.recipientPhone.hasSuffix("0000") {
            return .failed(
                code: "supplier_rejected", message: "The \(order.network.displayName) supplier rejected the top-up.")
        }
        if order.recipientPhone.hasSuffix("9999") {
            return .failed(
                code: "supplier_unavailable", message: "The \(order.network.displayName) supplier is unavailable.")
        }
        let digest = SHA256.hash(data: Array(order.transactionId.utf8))
        var reference = Array("SIM-".utf8)
        for byte in digest.prefix(6) {
            reference.append(hexDigits[Int(byte >> 4)])
            reference.append(hexDigits[Int(byte & 0x0F)])
        }
        return .delivered(reference: String(decoding: reference, as: UTF8.self))
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
