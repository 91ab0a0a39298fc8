import CountersignCore
import Crypto
import Testing

@testable import CountersignServer

@Suite("Simulated airtime supplier")
struct SimulatedSupplierTests {
    private func order(_ transactionId: String, phone: String = "08012345678") -> AirtimeOrder {
        AirtimeOrder(transactionId: transactionId, network: .mtn, recipientPhone: phone, amount: 500, currency: "NGN")
    }

    @Test("a delivery's receipt is SIM- and the first 12 hex digits of SHA-256(transaction id), in capitals")
    func receipt() async throws {
        // The first three digests have a byte below 0x10 in their first six, so a zero left out would show.
        for transactionId in ["wtx_1", "wtx_2", "wtx_3", "", "wtx_ü", "wtx_16", "wtx_27"] {
            let hex = SHA256.hash(data: Array(transactionId.utf8)).map { byte in
                (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }.joined()
            let outcome = try await SimulatedAirtimeSupplier().purchase(order(transactionId))
            #expect(outcome == .delivered(reference: "SIM-" + hex.prefix(12)))
            let later = try await SimulatedAirtimeSupplier().outcome(
                ofTransaction: transactionId, order: order(transactionId))
            #expect(later == outcome)
        }
    }

    @Test("a number ending 0000 is refused and one ending 9999 finds the supplier unavailable")
    func failures() async throws {
        let refused = try await SimulatedAirtimeSupplier().purchase(order("wtx_1", phone: "08012340000"))
        #expect(refused == .failed(code: "supplier_rejected", message: "The MTN supplier rejected the top-up."))
        let unavailable = try await SimulatedAirtimeSupplier().purchase(order("wtx_1", phone: "08012349999"))
        #expect(unavailable == .failed(code: "supplier_unavailable", message: "The MTN supplier is unavailable."))
    }
}
