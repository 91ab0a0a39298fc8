import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Numbers at the edges of 64 bits, from anyone who can send a request: a trap would end every
/// user's requests, so each must be a 4xx and the server must go on answering.
@Suite("Overflow at the edges")
struct OverflowTests {
    static let extremes: [Int64] = [.min, .min + 1, -1, 0, .max - 1, .max]

    @Test("a webhook timestamp of Int64.min or Int64.max is stale, not a crash", arguments: TestEngines.all)
    func webhookTimestamp(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            for timestamp in Self.extremes {
                let response = try await server.client.send(
                    .POST, "/webhooks/payments", raw: Array("{}".utf8),
                    headers: [("Countersign-Signature", "t=\(timestamp),v1=00")]
                )
                #expect(
                    response.status == 400 && response.errorCode == "stale_signature",
                    "t=\(timestamp): \(response.text)")
            }
            #expect(try await server.client.get("/health").status == 200)
        }
    }

    @Test("WebhookSignature refuses every extreme timestamp without trapping")
    func signatureArithmetic() {
        let signature = WebhookSignature(secret: Array(repeating: 7, count: 32))
        for now in Self.extremes {
            for timestamp in Self.extremes {
                let header = signature.header(body: [], timestamp: timestamp)
                let accepted = (try? signature.verify(header: header, body: [], nowMillis: now)) != nil
                // Among these, only now ∈ {-1, 0} ms (0 s) and t ∈ {-1, 0} s lie within 300 s of each other.
                #expect(
                    accepted == ([-1, 0].contains(now) && [-1, 0].contains(timestamp)), "now \(now), t \(timestamp)")
            }
        }
    }

    @Test("a card expiry year of Int.min or Int.max is 422, not a crash", arguments: TestEngines.all)
    func cardExpiryYear(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            for year in Self.extremes.map(Int.init) + [2_000, 9_999] {
                for month in [Int.min, 0, 1, 13, Int.max] {
                    let response = try await server.client.post(
                        "/payment-methods/cards",
                        AddCardRequest(number: "4242424242424242", expMonth: month, expYear: year), token: user.token
                    )
                    #expect(
                        response.status == 422 && response.errorCode == "invalid_expiry",
                        "\(month)/\(year): \(response.status) \(response.text)")
                }
            }
            #expect(
                try await server.client.get("/payment-methods/cards", token: user.token).decode(SavedCardList.self)
                    .cards.isEmpty)
            #expect(try await server.client.get("/health").status == 200)
        }
    }
}
