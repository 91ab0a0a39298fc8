import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Every parser a request reaches has limits: a body nested as deep as 64 KiB allows, or as long,
/// is a 4xx, never a stack overflow or minutes of work.
@Suite("Parser limits")
struct ParserLimitTests {
    @Test(
        "JSON nested 30,000 deep, or 64 KiB of one string, is refused and the server goes on",
        arguments: TestEngines.all)
    func deepJSON(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let bodies: [[UInt8]] = [
                Array(String(repeating: "[", count: 30_000).utf8),
                Array((String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8),
                Array((#"{"phone":""# + String(repeating: "9", count: 60_000) + #"","name":"x","pin":"4827"}"#).utf8),
            ]
            for body in bodies {
                for path in ["/auth/signup", "/biometric/auth/verify", "/user/topup", "/transfers"] {
                    let response = try await server.client.send(
                        .POST, path, raw: body, token: user.token, headers: [("Idempotency-Key", UUID().uuidString)])
                    #expect(
                        (400..<500).contains(response.status),
                        "\(path): \(response.status) \(response.text.prefix(200))")
                }
            }
            #expect(try await server.client.get("/health").status == 200)
            #expect(try await LedgerAudit.count("users", server.database) == 1)
        }
    }
}
