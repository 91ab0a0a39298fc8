import CountersignAPI
import CountersignStore
import Testing

@testable import CountersignServer

/// `GET /user/transactions`: newest first, paginated by cursor, only the user's own.
@Suite("Transaction history")
struct TransactionHistoryTests {
    @Test("pages cover every transaction once, newest first", arguments: TestEngines.all)
    func pagination(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let other = try await server.signup()
            _ = try await server.services.wallets.fund(phone: other.phone, amount: 1_000, reference: nil)
            var expected: [String] = []
            for index in 0..<12 {
                if index % 3 == 0 { server.clock.advance(seconds: 1) } // some share a millisecond, some don't
                let (id, _) = try await server.services.wallets.fund(
                    phone: user.phone, amount: Int64(100 + index), reference: "ref-\(index)")
                expected.append(id)
            }
            var seen: [TransactionSummary] = []
            var cursor: String?
            repeat {
                let path = "/user/transactions?limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await server.client.get(path, token: user.token).decode(TransactionPage.self)
                #expect(page.transactions.count <= 5)
                seen += page.transactions
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen.count == 12)
            #expect(Set(seen.map(\.transactionId)) == Set(expected))
            #expect(seen.map(\.amount) == (0..<12).reversed().map { Int64(100 + $0) }, "newest first")

            // An operator reference credits once.
            await #expect(throws: APIError(.duplicateReference, "A funding with reference ref-3 exists already.")) {
                _ = try await server.services.wallets.fund(phone: user.phone, amount: 1, reference: "ref-3")
            }
            #expect(try await server.wallet(user).balance == (0..<12).reduce(0) { $0 + Int64(100 + $1) })

            #expect(
                try await server.client.get("/user/transactions?limit=0", token: user.token).errorCode
                    == "invalid_limit")
            #expect(
                try await server.client.get("/user/transactions?limit=abc", token: user.token).errorCode
                    == "invalid_limit")
            #expect(try await server.client.get("/user/transactions?cursor=%%%", token: user.token).status == 400)
        }
    }
}
