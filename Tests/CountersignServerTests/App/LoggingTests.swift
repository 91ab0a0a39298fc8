import CountersignAPI
import CountersignStore
import Foundation
import Testing

@Suite("Structured logs")
struct LoggingTests {
    @Test(
        "serve --log-format json: every line is one JSON object; one record per request names the route, status, user, trace id and request id; no secret is logged",
        arguments: TestEngines.all)
    func jsonLines(engine: DatabaseEngine) async throws {
        let pin = "731946"
        let output = try await ServeProcess.with(
            engine, extra: ["--log-format", "json", "--log-level", "info", "--no-rate-limits"]
        ) {
            server, fund in
            let phone = "0807" + String(Int.random(in: 1_000_000..<9_999_999))
            let session = try await server.client.post(
                "/auth/signup", try await server.client.signupBody(phone: phone, name: "Log test", pin: pin)
            ).decode(SessionResponse.self)
            try await fund(phone, 10_000)
            let paid = try await server.client.post(
                "/user/topup",
                TopUpRequest(
                    amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: nil,
                    useCashback: nil, verificationToken: nil, pin: pin),
                token: session.sessionToken)
            #expect(paid.status == 200, "\(paid.text)")
            let forged = try await server.client.post(
                "/user/topup",
                TopUpRequest(
                    amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: nil,
                    useCashback: nil, verificationToken: "tok-SECRET-4242", pin: nil),
                token: session.sessionToken)
            #expect(forged.status == 401)
            let forgedTraceId = try forged.decode(ErrorResponse.self).error.traceId
            #expect(try await server.client.get("/user/wallet", token: "not-a-session-SECRET").status == 401)
            await server.stop()
            return (server.output, phone, session, forgedTraceId)
        }
        let (log, phone, session, forgedTraceId) = output
        let token = try #require(session.sessionToken)
        let lines = log.split(separator: "\n").filter { !$0.isEmpty }
        let records: [[String: String]] = lines.compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            return object as? [String: String]
        }
        #expect(!lines.isEmpty)
        #expect(records.count == lines.count, "every line is a JSON object of strings:\n\(log.prefix(2_000))")
        #expect(records.allSatisfy { $0["time"] != nil && $0["level"] != nil && $0["message"] != nil })

        let requests = records.filter { $0["message"] == "request" }
        let topUps = requests.filter { $0["route"] == "/user/topup" }
        #expect(topUps.compactMap { $0["status"] }.sorted() == ["200", "401"], "\(topUps)")
        // The refusal's body quotes its trace id, which finds its record; every record has its own.
        #expect(topUps.first { $0["status"] == "401" }?["trace_id"] == forgedTraceId && forgedTraceId != nil)
        #expect(requests.allSatisfy { $0["trace_id"]?.count == 32 })
        #expect(Set(requests.compactMap { $0["trace_id"] }).count == requests.count)
        for record in topUps {
            #expect(record["user"] == session.userId)
            #expect(record["method"] == "POST")
            #expect(record["hb.request.id"] != nil)
            #expect(Double(record["duration_ms"] ?? "") != nil)
        }
        let refusedWallet = requests.filter { $0["route"] == "/user/wallet" && $0["status"] == "401" }
        #expect(refusedWallet.count == 1 && refusedWallet.first?["user"] == nil, "\(requests)")

        let secrets: [String] = [pin, token, "tok-SECRET-4242", "not-a-session-SECRET", phone]
        for secret in secrets {
            #expect(!log.contains(secret), "the log holds a secret: \(secret)")
        }
    }
}
